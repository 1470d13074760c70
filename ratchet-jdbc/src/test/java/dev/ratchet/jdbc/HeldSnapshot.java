package dev.ratchet.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A PostgreSQL transaction that holds its snapshot open until closed, as a long report or an idle
 * session would under load: no row deleted meanwhile can be removed from its table or indexes.
 */
final class HeldSnapshot implements AutoCloseable {
  private final Connection reader;

  private HeldSnapshot(Connection reader) {
    this.reader = reader;
  }

  static HeldSnapshot take() throws SQLException {
    Connection c = Postgres.admin();
    try {
      c.setAutoCommit(false);
      c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM pg_class");
          ResultSet rs = ps.executeQuery()) {
        rs.next(); // a repeatable-read transaction takes its snapshot at its first statement
      }
      return new HeldSnapshot(c);
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  @Override
  public void close() throws SQLException {
    try {
      reader.rollback();
    } finally {
      reader.close();
    }
  }
}
