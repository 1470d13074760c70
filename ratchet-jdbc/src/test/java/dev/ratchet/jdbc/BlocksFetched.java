package dev.ratchet.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Blocks of a test schema's tables and indexes that PostgreSQL counts as fetched (read from disk or
 * found in its buffers): what a statement walked, whatever the clock says.
 */
final class BlocksFetched {
  private BlocksFetched() {}

  /** By the backend of {@code c}, in its current transaction (they move as it reads). */
  static long inThisTransaction(Connection c, String schema, String... relations)
      throws SQLException {
    return sum(c, "pg_stat_get_xact_blocks_fetched", schema, relations);
  }

  /** By every backend that has reported its counters (a backend reports when idle or at exit). */
  static long reported(Connection c, String schema, String... relations) throws SQLException {
    return sum(c, "pg_stat_get_blocks_fetched", schema, relations);
  }

  private static long sum(Connection c, String counter, String schema, String[] relations)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT COALESCE(sum("
                + counter
                + "(c.oid)), 0) FROM pg_class c"
                + " WHERE c.relnamespace = ?::regnamespace AND c.relname = ANY (?)")) {
      ps.setString(1, schema);
      ps.setArray(2, c.createArrayOf("text", relations));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
