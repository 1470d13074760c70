package dev.ratchet.jdbc.internal;

import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.RunScope;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The high-water mark ({@code ratchet_marks}) and the log of retained generations ({@code
 * ratchet_generations}). The compare-and-set is one statement that checks the generation, the
 * environment instance and the live lease together (SPEC D8); its row count is the verdict.
 */
final class Marks {
  private Marks() {}

  /** A mark row. */
  record Row(long generation, String digest, String instanceId) {}

  static Optional<Row> get(Connection c, String taskId, String runId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT generation, content_digest, environment_instance_id FROM ratchet_marks"
                + " WHERE task_id = ? AND run_id = ?")) {
      ps.setString(1, taskId);
      ps.setString(2, runId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next()
            ? Optional.of(new Row(rs.getLong(1), rs.getString(2), rs.getString(3)))
            : Optional.empty();
      }
    }
  }

  /**
   * The compare-and-set of a commit: creates the mark at generation 1 (expected 0) or advances it
   * by one, only while the fence is the live lease. Returns the row count: 1 won, 0 refused.
   */
  static int compareAndSet(Connection c, CommitRequest r, String digest, long nowMs)
      throws SQLException {
    RunScope s = r.scope();
    if (r.expectedGeneration() == 0) {
      try (PreparedStatement ps =
          c.prepareStatement(
              "INSERT INTO ratchet_marks"
                  + " (task_id, run_id, generation, content_digest, environment_instance_id)"
                  + " SELECT ?, ?, 1, ?, ?"
                  + " WHERE NOT EXISTS"
                  + " (SELECT 1 FROM ratchet_marks WHERE task_id = ? AND run_id = ?)"
                  + " AND "
                  + Leases.LIVE)) {
        ps.setString(1, s.taskId());
        ps.setString(2, s.runId());
        ps.setString(3, digest);
        ps.setString(4, s.environmentInstanceId());
        ps.setString(5, s.taskId());
        ps.setString(6, s.runId());
        Leases.bindLive(ps, 7, r.fence(), r.token(), nowMs);
        return ps.executeUpdate();
      }
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE ratchet_marks SET generation = ?, content_digest = ?"
                + " WHERE task_id = ? AND run_id = ? AND generation = ?"
                + " AND environment_instance_id = ? AND "
                + Leases.LIVE)) {
      ps.setLong(1, r.nextGeneration());
      ps.setString(2, digest);
      ps.setString(3, s.taskId());
      ps.setString(4, s.runId());
      ps.setLong(5, r.expectedGeneration());
      ps.setString(6, s.environmentInstanceId());
      Leases.bindLive(ps, 7, r.fence(), r.token(), nowMs);
      return ps.executeUpdate();
    }
  }

  /** Records which digest a committed generation has, and forgets generations below the floor. */
  static void logAndPrune(
      Connection c, String taskId, String runId, long generation, String digest, int retainOlder)
      throws SQLException {
    log(c, taskId, runId, generation, digest);
    pruneLog(c, taskId, runId, generation - retainOlder);
  }

  /** Records which digest a committed generation has. */
  static void log(Connection c, String taskId, String runId, long generation, String digest)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO ratchet_generations (task_id, run_id, generation, content_digest)"
                + " VALUES (?, ?, ?, ?) ON CONFLICT (task_id, run_id, generation)"
                + " DO UPDATE SET content_digest = excluded.content_digest")) {
      ps.setString(1, taskId);
      ps.setString(2, runId);
      ps.setLong(3, generation);
      ps.setString(4, digest);
      Leases.requireOne(ps.executeUpdate(), "generation log insert");
    }
  }

  /** Forgets the run's logged generations below {@code floor}. */
  static void pruneLog(Connection c, String taskId, String runId, long floor) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "DELETE FROM ratchet_generations WHERE task_id = ? AND run_id = ? AND generation < ?")) {
      ps.setString(1, taskId);
      ps.setString(2, runId);
      ps.setLong(3, floor);
      ps.executeUpdate();
    }
  }

  /** The digest logged when {@code generation} was committed, if it is still retained. */
  static Optional<String> logged(Connection c, String taskId, String runId, long generation)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT content_digest FROM ratchet_generations"
                + " WHERE task_id = ? AND run_id = ? AND generation = ?")) {
      ps.setString(1, taskId);
      ps.setString(2, runId);
      ps.setLong(3, generation);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
      }
    }
  }

  /** A generation the store still keeps. */
  record Retained(long generation, String digest) {}

  /** The retained generations of a run, newest first. */
  static List<Retained> retained(Connection c, String taskId, String runId) throws SQLException {
    return retained(c, taskId, runId, 0);
  }

  /**
   * The retained generations of a run from {@code lowest} up, newest first. A commit that just
   * pruned below {@code lowest} reads from there: on PostgreSQL the rows it and earlier commits
   * deleted stay in the index until a vacuum, and a read from the run's first generation would walk
   * them all.
   */
  static List<Retained> retained(Connection c, String taskId, String runId, long lowest)
      throws SQLException {
    List<Retained> out = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT generation, content_digest FROM ratchet_generations"
                + " WHERE task_id = ? AND run_id = ? AND generation >= ?"
                + " ORDER BY generation DESC")) {
      ps.setString(1, taskId);
      ps.setString(2, runId);
      ps.setLong(3, lowest);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new Retained(rs.getLong(1), rs.getString(2)));
        }
      }
    }
    return out;
  }

  /** Every run with its generation, in key order. */
  static List<CheckpointStore.RunRef> all(Connection c) throws SQLException {
    List<CheckpointStore.RunRef> out = new ArrayList<>();
    try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT task_id, run_id, generation FROM ratchet_marks ORDER BY task_id, run_id");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(new CheckpointStore.RunRef(rs.getString(1), rs.getString(2), rs.getLong(3)));
      }
    }
    return out;
  }

  /** The runs with this id, in task order: by the run-id index (schema version 12). */
  static List<CheckpointStore.RunRef> withRunId(Connection c, String runId) throws SQLException {
    List<CheckpointStore.RunRef> out = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT task_id, run_id, generation FROM ratchet_marks WHERE run_id = ?"
                + " ORDER BY task_id")) {
      ps.setString(1, runId);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new CheckpointStore.RunRef(rs.getString(1), rs.getString(2), rs.getLong(3)));
        }
      }
    }
    return out;
  }
}
