package dev.ratchet.jdbc.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Wakes every waiting scheduling row (issue 39, ADR 0053): PostgreSQL through {@code
 * ratchet_wake_waiting} (schema version 13), SQLite with the same two updates in one write
 * transaction of its single writer. Every row not ended counts a nudge, so a park decided before
 * the wake loses to it.
 */
public final class Wakes {
  private Wakes() {}

  /** How many waiting rows became runnable. */
  public static int wakeWaiting(Side marks, Connection c) throws SQLException {
    if (marks.dialect() instanceof PostgresDialect) {
      try (PreparedStatement ps = c.prepareStatement("SELECT ratchet_wake_waiting()");
          ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getInt(1) : 0;
      }
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE ratchet_schedule SET nudges = nudges + 1 WHERE state = 'runnable'")) {
      ps.executeUpdate();
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE ratchet_schedule SET state = 'runnable', nudges = nudges + 1"
                + " WHERE state = 'waiting'")) {
      return ps.executeUpdate();
    }
  }
}
