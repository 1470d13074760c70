package dev.ratchet.adapters;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * One SQLite connection in WAL mode with {@code synchronous=FULL} (a commit survives power loss),
 * used under the caller's lock. Shared by the workspace journal and the harness's reference ledger.
 * Transactions are explicit {@code BEGIN IMMEDIATE}/{@code COMMIT} on an autocommit connection, so
 * an idle connection never holds the write lock (see ARCHITECTURE.md on the sqlite-jdbc pitfall).
 * Every SQL failure is {@code STORE_UNAVAILABLE}.
 */
public final class Sqlite implements AutoCloseable {
  /** Work done with the connection. */
  @FunctionalInterface
  public interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  private final Connection connection;
  private final String name;

  private Sqlite(Connection connection, String name) {
    this.connection = connection;
    this.name = name;
  }

  public static Sqlite open(Path file, String name, String... schema) {
    try {
      Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
      try (Statement s = c.createStatement()) {
        s.execute("PRAGMA busy_timeout=10000");
        s.execute("PRAGMA journal_mode=WAL");
        s.execute("PRAGMA synchronous=FULL");
        for (String ddl : schema) {
          s.execute(ddl);
        }
      }
      return new Sqlite(c, name);
    } catch (SQLException e) {
      throw new RatchetException(
          ErrorCode.STORE_UNAVAILABLE, name + ": cannot open " + file + ": " + e.getMessage(), e);
    }
  }

  /** Runs {@code work} in one write transaction; a thrown exception rolls it back. */
  public <T> T tx(Work<T> work) {
    try {
      exec("BEGIN IMMEDIATE");
      T out;
      try {
        out = work.run(connection);
      } catch (SQLException | RuntimeException | Error e) {
        exec("ROLLBACK");
        throw e;
      }
      exec("COMMIT");
      return out;
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  /** Runs {@code work} outside a transaction (single reads). */
  public <T> T read(Work<T> work) {
    try {
      return work.run(connection);
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  private void exec(String sql) throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute(sql);
    }
  }

  private RatchetException unavailable(SQLException e) {
    return new RatchetException(ErrorCode.STORE_UNAVAILABLE, name + ": " + e.getMessage(), e);
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }
}
