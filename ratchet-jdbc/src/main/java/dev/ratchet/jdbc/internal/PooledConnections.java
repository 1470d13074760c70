package dev.ratchet.jdbc.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.StoreOptions;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * A HikariCP pool for one PostgreSQL side. Writers are not serialised: each transaction borrows a
 * connection, so many runs of one worker commit side by side, and PostgreSQL groups their WAL
 * flushes. Connections do not auto-commit, run READ COMMITTED, use the store's schema as their
 * {@code search_path} and {@code synchronous_commit = on} whatever the server's default, and hold a
 * row lock at most {@code busyTimeout} ({@code lock_timeout}). A connection that went bad (the
 * server restarted) is dropped by the pool and replaced on the next borrow.
 */
final class PooledConnections implements Connections {
  private final HikariDataSource pool;

  PooledConnections(Database db, StoreOptions options) {
    long waitMs = Math.max(250, options.busyTimeout().toMillis());
    HikariConfig cfg = new HikariConfig();
    cfg.setPoolName("ratchet " + db);
    cfg.setJdbcUrl(db.jdbcUrl());
    cfg.setUsername(db.user());
    if (db.password() != null) {
      cfg.setPassword(db.password());
    }
    cfg.setAutoCommit(false);
    cfg.setMaximumPoolSize(db.poolSize());
    cfg.setMinimumIdle(Math.min(2, db.poolSize()));
    cfg.setConnectionTimeout(waitMs);
    cfg.setValidationTimeout(Math.max(250, Math.min(waitMs - 1, 5_000)));
    // Session settings travel in the startup packet, not as SET statements: with auto-commit off, a
    // SET the pool ran would belong to a transaction that the first rollback undoes.
    cfg.addDataSourceProperty("currentSchema", db.schema());
    cfg.addDataSourceProperty("options", PostgresDialect.sessionOptions(options));
    cfg.addDataSourceProperty("ApplicationName", "ratchet");
    cfg.addDataSourceProperty("tcpKeepAlive", "true");
    cfg.addDataSourceProperty("connectTimeout", Long.toString(connectTimeoutSeconds(options)));
    try {
      this.pool = new HikariDataSource(cfg);
    } catch (HikariPool.PoolInitializationException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw Failures.unavailable(db + ": cannot connect", cause);
    }
  }

  /** The driver's connect timeout: the busy timeout in whole seconds, at least 1. */
  static long connectTimeoutSeconds(StoreOptions options) {
    return Math.max(1, (options.busyTimeout().toMillis() + 999) / 1000);
  }

  @Override
  public boolean serialisesWriters() {
    return false;
  }

  @Override
  public Connection writer() throws SQLException {
    return pool.getConnection();
  }

  @Override
  public void doneWriting(Connection c, boolean healthy) {
    giveBack(c, healthy);
  }

  @Override
  public Connection reader() throws SQLException {
    return pool.getConnection();
  }

  @Override
  public void doneReading(Connection c, boolean healthy) {
    giveBack(c, healthy);
  }

  private void giveBack(Connection c, boolean healthy) {
    if (!healthy) {
      pool.evictConnection(c);
    }
    Connections.closeQuietly(c); // back to the pool, which rolls back anything left open
  }

  @Override
  public void close() {
    pool.close();
  }
}
