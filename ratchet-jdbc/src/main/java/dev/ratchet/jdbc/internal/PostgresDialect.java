package dev.ratchet.jdbc.internal;

import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.StoreOptions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.InstantSource;
import java.util.List;
import java.util.Properties;

/**
 * PostgreSQL: a HikariCP pool per side ({@link PooledConnections}), READ COMMITTED write
 * transactions that run concurrently (each compare-and-set locks only its run's mark row, and the
 * server flushes the WAL of concurrent commits together), REPEATABLE READ read-only snapshots, and
 * marks and leases moved only through the schema's {@code SECURITY DEFINER} functions ({@link
 * FunctionWrites}) that judge leases on the database clock.
 */
final class PostgresDialect implements Dialect {
  static final PostgresDialect INSTANCE = new PostgresDialect();

  private static final String UNIQUE_VIOLATION = "23505";

  private PostgresDialect() {}

  @Override
  public Connections connections(Database db, StoreOptions options) {
    return new PooledConnections(db, options);
  }

  /** One unpooled connection (administration); the store itself always uses the pool. */
  @Override
  public Connection connect(Database db, StoreOptions options) throws SQLException {
    return connect(db, PooledConnections.connectTimeoutSeconds(options));
  }

  static Connection connect(Database db, long connectTimeoutSeconds) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", db.user());
    if (db.password() != null) {
      p.setProperty("password", db.password());
    }
    p.setProperty("ApplicationName", "ratchet");
    p.setProperty("connectTimeout", Long.toString(connectTimeoutSeconds));
    p.setProperty("currentSchema", db.schema());
    return DriverManager.getConnection(db.jdbcUrl(), p);
  }

  /**
   * The session settings of every store connection, as server startup options: READ COMMITTED
   * writes, {@code synchronous_commit = on} whatever the server's default (a commit returns once
   * its WAL is flushed), and row locks waited for at most the busy timeout (at least 1 ms: for
   * PostgreSQL 0 means no limit, for SQLite it means no wait).
   */
  static String sessionOptions(StoreOptions options) {
    return "-c default_transaction_isolation=read\\ committed -c synchronous_commit=on"
        + " -c lock_timeout="
        + Math.max(1, options.busyTimeout().toMillis()); // 0 would mean "wait forever" here
  }

  @Override
  public void prepareWriter(Connection c) {}

  /** The pool's connections do not auto-commit: the first statement opens the transaction. */
  @Override
  public void beginWrite(Connection c) {}

  @Override
  public void beginRead(Connection c) throws SQLException {
    execute(c, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
  }

  @Override
  public void commit(Connection c) throws SQLException {
    c.commit();
  }

  @Override
  public boolean rollback(Connection c) {
    try {
      c.rollback();
      return true;
    } catch (SQLException e) {
      return false;
    }
  }

  @Override
  public List<Migration> migrations(Database db) {
    return PostgresSchema.migrations(quote(db.schema()));
  }

  /**
   * An advisory lock on the schema's name serialises migrators (DDL is transactional, so the loser
   * re-reads the version the winner committed); the schema is created if it is missing.
   */
  @Override
  public void beforeMigrating(Connection c, Database db) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT pg_advisory_xact_lock(hashtext('ratchet-migrate:' || ?))")) {
      ps.setString(1, db.schema());
      ps.executeQuery().close();
    }
    boolean exists;
    try (PreparedStatement ps =
        c.prepareStatement("SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = ?")) {
      ps.setString(1, db.schema());
      try (ResultSet rs = ps.executeQuery()) {
        exists = rs.next();
      }
    }
    if (!exists) {
      execute(c, "CREATE SCHEMA " + quote(db.schema()));
    }
  }

  @Override
  public void lock(Connection c, String key) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':' || ?))")) {
      ps.setString(1, key);
      ps.executeQuery().close();
    }
  }

  @Override
  public boolean hasTable(Connection c, String table) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT 1 FROM pg_catalog.pg_class t"
                + " JOIN pg_catalog.pg_namespace n ON n.oid = t.relnamespace"
                + " WHERE n.nspname = current_schema() AND t.relname = ? AND t.relkind = 'r'")) {
      ps.setString(1, table);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  /** The database clock, through the schema's function (one clock for every worker, D8). */
  @Override
  public long nowMillis(Connection c, InstantSource injected) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT ratchet_now_ms()")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Override
  public Writes writes() {
    return FunctionWrites.INSTANCE;
  }

  @Override
  public boolean isUniqueViolation(SQLException e) {
    return UNIQUE_VIOLATION.equals(e.getSQLState());
  }

  /** A schema name is validated by {@link Database#withSchema}; quoting is belt and braces. */
  static String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
