package dev.ratchet.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import org.sqlite.SQLiteConfig;

/**
 * The raw baseline: one durable single-row commit ({@code BEGIN IMMEDIATE; INSERT; COMMIT}) on the
 * same SQLite file as the store under test, with the same settings the store uses (WAL, {@code
 * synchronous=FULL}, autocommit connection with explicit transactions). It is the least work that
 * makes one row of that size durable here: what the machine allows.
 *
 * <p>One instance is one connection, used by one thread.
 */
final class RawSqlite implements AutoCloseable {
  private final Connection c;
  private final PreparedStatement begin;
  private final PreparedStatement insert;
  private final PreparedStatement commit;
  private final PreparedStatement rollback;

  private RawSqlite(Connection c) throws SQLException {
    this.c = c;
    try (Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE IF NOT EXISTS bench_raw (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
    }
    // Every statement compiled once, as the store's statement cache does.
    this.begin = c.prepareStatement("BEGIN IMMEDIATE");
    this.insert = c.prepareStatement("INSERT INTO bench_raw (body) VALUES (?)");
    this.commit = c.prepareStatement("COMMIT");
    this.rollback = c.prepareStatement("ROLLBACK");
  }

  /** A connection to {@code file} (the store's file: WAL is already set there and persistent). */
  static RawSqlite open(Path file) {
    SQLiteConfig config = new SQLiteConfig();
    // Longer than the store's 5 s: 64 naive writers starve each other on SQLite's busy handler,
    // and a starved writer should show as a low rate, not as a failed run.
    config.setBusyTimeout(120_000);
    config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
    config.setGetGeneratedKeys(false); // as the store: no "SELECT last_insert_rowid()" per INSERT
    try {
      Connection c = config.createConnection("jdbc:sqlite:" + file.toAbsolutePath());
      c.setAutoCommit(true);
      try (Statement s = c.createStatement()) {
        s.execute("PRAGMA journal_mode=WAL");
      }
      return new RawSqlite(c);
    } catch (SQLException e) {
      throw new IllegalStateException("raw baseline: cannot open " + file, e);
    }
  }

  /** One durable transaction that inserts one row holding {@code body}. */
  void commitOne(String body) {
    try {
      begin.execute();
      try {
        insert.setString(1, body);
        insert.executeUpdate();
        commit.execute();
      } catch (SQLException e) {
        rollback.execute();
        throw e;
      }
    } catch (SQLException e) {
      throw new IllegalStateException("raw baseline commit failed", e);
    }
  }

  @Override
  public void close() {
    try {
      c.close();
    } catch (SQLException e) {
      // Discarded either way.
    }
  }
}
