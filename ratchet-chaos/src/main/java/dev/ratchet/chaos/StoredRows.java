package dev.ratchet.chaos;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Every stored row of one run in a SQLite store, read and written behind the store's back with a
 * raw JDBC connection: the mark, the generation log, the retained checkpoint contents and the
 * records of every growing set. The tamper campaign edits a copy and writes it over the original,
 * then writes the original back.
 */
record StoredRows(
    String taskId,
    String runId,
    Mark mark,
    List<Gen> generations,
    List<Content> contents,
    List<Rec> records) {

  record Mark(long generation, String digest, String instance) {}

  record Gen(long generation, String digest) {}

  record Content(String digest, long generation, String body) {}

  record Rec(String set, long sequence, String key, String body, String chain) {}

  StoredRows {
    // Kept in the order the database returns them, so equal rows compare equal.
    generations = generations.stream().sorted(Comparator.comparingLong(Gen::generation)).toList();
    contents =
        contents.stream()
            .sorted(Comparator.comparingLong(Content::generation).thenComparing(Content::digest))
            .toList();
    records =
        records.stream()
            .sorted(Comparator.comparing(Rec::set).thenComparingLong(Rec::sequence))
            .toList();
  }

  StoredRows withMark(Mark m) {
    return new StoredRows(taskId, runId, m, generations, contents, records);
  }

  StoredRows withGenerations(List<Gen> g) {
    return new StoredRows(taskId, runId, mark, g, contents, records);
  }

  StoredRows withContents(List<Content> c) {
    return new StoredRows(taskId, runId, mark, generations, c, records);
  }

  StoredRows withRecords(List<Rec> r) {
    return new StoredRows(taskId, runId, mark, generations, contents, r);
  }

  /** The checkpoint the mark names. */
  Content current() {
    return contents.stream()
        .filter(c -> c.digest().equals(mark.digest()))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no current content for " + runId));
  }

  /** Records of one set, in sequence order. */
  List<Rec> set(String name) {
    return records.stream().filter(r -> r.set().equals(name)).toList();
  }

  static StoredRows read(Connection c, String taskId, String runId) throws SQLException {
    Mark mark = null;
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT generation, content_digest, environment_instance_id FROM ratchet_marks"
                + " WHERE task_id = ? AND run_id = ?")) {
      bind(ps, taskId, runId);
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next()) {
          mark = new Mark(rs.getLong(1), rs.getString(2), rs.getString(3));
        }
      }
    }
    List<Gen> gens = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT generation, content_digest FROM ratchet_generations"
                + " WHERE task_id = ? AND run_id = ? ORDER BY generation")) {
      bind(ps, taskId, runId);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          gens.add(new Gen(rs.getLong(1), rs.getString(2)));
        }
      }
    }
    List<Content> contents = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT content_digest, generation, body FROM ratchet_checkpoints"
                + " WHERE task_id = ? AND run_id = ? ORDER BY generation, content_digest")) {
      bind(ps, taskId, runId);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          contents.add(new Content(rs.getString(1), rs.getLong(2), rs.getString(3)));
        }
      }
    }
    List<Rec> recs = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT set_name, sequence, record_key, body, chain FROM ratchet_records"
                + " WHERE task_id = ? AND run_id = ? ORDER BY set_name, sequence")) {
      bind(ps, taskId, runId);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          recs.add(
              new Rec(
                  rs.getString(1),
                  rs.getLong(2),
                  rs.getString(3),
                  rs.getString(4),
                  rs.getString(5)));
        }
      }
    }
    return new StoredRows(taskId, runId, mark, gens, contents, recs);
  }

  /** Replaces every row of the run with these, in one transaction. */
  void write(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("BEGIN IMMEDIATE");
    }
    try {
      for (String table :
          List.of(
              "ratchet_marks", "ratchet_generations", "ratchet_checkpoints", "ratchet_records")) {
        try (PreparedStatement ps =
            c.prepareStatement("DELETE FROM " + table + " WHERE task_id = ? AND run_id = ?")) {
          bind(ps, taskId, runId);
          ps.executeUpdate();
        }
      }
      if (mark != null) {
        try (PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO ratchet_marks (task_id, run_id, generation, content_digest,"
                    + " environment_instance_id) VALUES (?, ?, ?, ?, ?)")) {
          bind(ps, taskId, runId);
          ps.setLong(3, mark.generation());
          ps.setString(4, mark.digest());
          ps.setString(5, mark.instance());
          ps.executeUpdate();
        }
      }
      try (PreparedStatement ps =
          c.prepareStatement(
              "INSERT INTO ratchet_generations (task_id, run_id, generation, content_digest)"
                  + " VALUES (?, ?, ?, ?)")) {
        for (Gen g : generations) {
          bind(ps, taskId, runId);
          ps.setLong(3, g.generation());
          ps.setString(4, g.digest());
          ps.executeUpdate();
        }
      }
      try (PreparedStatement ps =
          c.prepareStatement(
              "INSERT INTO ratchet_checkpoints (task_id, run_id, content_digest, generation, body)"
                  + " VALUES (?, ?, ?, ?, ?)")) {
        for (Content x : contents) {
          bind(ps, taskId, runId);
          ps.setString(3, x.digest());
          ps.setLong(4, x.generation());
          ps.setString(5, x.body());
          ps.executeUpdate();
        }
      }
      try (PreparedStatement ps =
          c.prepareStatement(
              "INSERT INTO ratchet_records (task_id, run_id, set_name, sequence, record_key, body,"
                  + " chain) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
        for (Rec r : records) {
          bind(ps, taskId, runId);
          ps.setString(3, r.set());
          ps.setLong(4, r.sequence());
          ps.setString(5, r.key());
          ps.setString(6, r.body());
          ps.setString(7, r.chain());
          ps.executeUpdate();
        }
      }
      try (Statement s = c.createStatement()) {
        s.execute("COMMIT");
      }
    } catch (SQLException | RuntimeException e) {
      try (Statement s = c.createStatement()) {
        s.execute("ROLLBACK");
      }
      throw e;
    }
  }

  private static void bind(PreparedStatement ps, String taskId, String runId) throws SQLException {
    ps.setString(1, taskId);
    ps.setString(2, runId);
  }
}
