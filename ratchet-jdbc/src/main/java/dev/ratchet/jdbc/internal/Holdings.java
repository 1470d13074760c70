package dev.ratchet.jdbc.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * The two reads a store over several databases needs of each (issue 44, ADR 0140): whether a
 * database holds a run at all, and how long its oldest claimable row has waited. Both are one
 * statement; both change nothing.
 */
public final class Holdings {
  /**
   * A run is held where its lease, its mark or its scheduling row is: a run started by hand has a
   * lease before its first mark; a submitted one has only its row until a worker claims it. The
   * lease and the marks are looked up by key (their primary key; V12's index); the row by its run
   * id only when both miss.
   */
  private static final String HOLDS =
      "SELECT CASE WHEN EXISTS (SELECT 1 FROM ratchet_leases WHERE run_id = ?)"
          + " OR EXISTS (SELECT 1 FROM ratchet_marks WHERE run_id = ?)"
          + " OR EXISTS (SELECT 1 FROM ratchet_schedule WHERE run_id = ?) THEN 1 ELSE 0 END";

  /** The claim's own condition (V4's ratchet_claim, SQLite's claim), oldest row first. */
  private static final String OLDEST_CLAIMABLE =
      "SELECT s.updated_at_ms FROM ratchet_schedule s"
          + " WHERE (s.state = 'runnable' OR (s.state = 'waiting' AND s.wake_at_ms <= ?))"
          + " AND NOT EXISTS (SELECT 1 FROM ratchet_leases l WHERE l.run_id = s.run_id"
          + " AND l.held = 1 AND l.expires_at_ms > ?)"
          + " ORDER BY s.updated_at_ms LIMIT 1";

  private Holdings() {}

  public static boolean holds(Connection c, String runId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(HOLDS)) {
      ps.setString(1, runId);
      ps.setString(2, runId);
      ps.setString(3, runId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() && rs.getInt(1) == 1;
      }
    }
  }

  /** When the oldest claimable row was last touched (store clock, ms); empty when none is. */
  public static Optional<Long> oldestClaimable(Side marks, Connection c) throws SQLException {
    long now = marks.now(c);
    try (PreparedStatement ps = c.prepareStatement(OLDEST_CLAIMABLE)) {
      ps.setLong(1, now);
      ps.setLong(2, now);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(rs.getLong(1)) : Optional.empty();
      }
    }
  }
}
