package dev.ratchet.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** A test's own connection as the worker role on a test schema, with its backend's process id. */
final class PgWorkerSession implements AutoCloseable {
  final Connection connection;
  final int pid;

  PgWorkerSession(PgSchema schema) throws SQLException {
    connection = Postgres.connect(Postgres.URL, Postgres.WORKER);
    try {
      connection.setSchema(schema.name);
      try (PreparedStatement ps = connection.prepareStatement("SELECT pg_backend_pid()");
          ResultSet rs = ps.executeQuery()) {
        rs.next();
        pid = rs.getInt(1);
      }
    } catch (SQLException | RuntimeException e) {
      connection.close();
      throw e;
    }
  }

  /** The rows of {@code runId} in {@code table} (a name from the test, never from input). */
  long rows(String table, String runId) throws SQLException {
    try (PreparedStatement ps =
        connection.prepareStatement("SELECT count(*) FROM " + table + " WHERE run_id = ?")) {
      ps.setString(1, runId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
