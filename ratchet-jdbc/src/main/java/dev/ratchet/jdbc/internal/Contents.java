package dev.ratchet.jdbc.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Checkpoint content ({@code ratchet_checkpoints}), addressed by (run, digest). Writing is
 * idempotent, so content written ahead of a mark that then lost its race is harmless: it is never
 * pointed at, and retention removes it.
 */
final class Contents {
  private Contents() {}

  static void put(
      Connection c, String taskId, String runId, String digest, long generation, String body)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO ratchet_checkpoints"
                + " (task_id, run_id, content_digest, generation, body) VALUES (?, ?, ?, ?, ?)"
                + " ON CONFLICT (task_id, run_id, content_digest) DO UPDATE SET"
                + " body = excluded.body,"
                + " generation = CASE WHEN excluded.generation > ratchet_checkpoints.generation"
                + " THEN excluded.generation ELSE ratchet_checkpoints.generation END")) {
      ps.setString(1, taskId);
      ps.setString(2, runId);
      ps.setString(3, digest);
      ps.setLong(4, generation);
      ps.setString(5, body);
      Leases.requireOne(ps.executeUpdate(), "checkpoint content write");
    }
  }

  static Optional<String> get(Connection c, String taskId, String runId, String digest)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT body FROM ratchet_checkpoints"
                + " WHERE task_id = ? AND run_id = ? AND content_digest = ?")) {
      ps.setString(1, taskId);
      ps.setString(2, runId);
      ps.setString(3, digest);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
      }
    }
  }

  /**
   * Deletes the run's content that is neither retained nor newer than {@code upTo}: content of a
   * generation above the committed one may belong to a commit still in flight (split stores).
   */
  static int prune(
      Connection c, String taskId, String runId, long upTo, List<String> retainedDigests)
      throws SQLException {
    String placeholders = String.join(", ", Collections.nCopies(retainedDigests.size(), "?"));
    String sql =
        "DELETE FROM ratchet_checkpoints WHERE task_id = ? AND run_id = ? AND generation <= ?"
            + (retainedDigests.isEmpty()
                ? ""
                : " AND content_digest NOT IN (" + placeholders + ")");
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, taskId);
      ps.setString(2, runId);
      ps.setLong(3, upTo);
      int i = 4;
      for (String d : retainedDigests) {
        ps.setString(i++, d);
      }
      return ps.executeUpdate();
    }
  }

  /**
   * {@link #prune} with the retained digests taken from the generation log in the same statement
   * (single database only: the log must be in this database).
   */
  static int pruneUnlogged(Connection c, String taskId, String runId, long upTo)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "DELETE FROM ratchet_checkpoints WHERE task_id = ? AND run_id = ? AND generation <= ?"
                + " AND NOT EXISTS (SELECT 1 FROM ratchet_generations g"
                + " WHERE g.task_id = ratchet_checkpoints.task_id"
                + " AND g.run_id = ratchet_checkpoints.run_id"
                + " AND g.content_digest = ratchet_checkpoints.content_digest)")) {
      ps.setString(1, taskId);
      ps.setString(2, runId);
      ps.setLong(3, upTo);
      return ps.executeUpdate();
    }
  }
}
