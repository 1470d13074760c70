package dev.ratchet.jdbc.internal;

import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.StoreOptions;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteException;
import org.sqlite.SQLiteOpenMode;

/**
 * SQLite: WAL, {@code synchronous} as configured (FULL by default), a busy timeout, and explicit
 * {@code BEGIN IMMEDIATE} on an autocommit connection. The driver's own transaction mode is never
 * used: with {@code TransactionMode.IMMEDIATE} it re-issues {@code BEGIN IMMEDIATE} after every
 * commit, so an idle connection would hold the write lock (ARCHITECTURE.md).
 */
final class SqliteDialect implements Dialect {
  static final SqliteDialect INSTANCE = new SqliteDialect();

  private static final int SQLITE_CONSTRAINT = 19;
  private static final int SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
  private static final int SQLITE_CONSTRAINT_UNIQUE = 2067;

  private SqliteDialect() {}

  @Override
  public Connections connections(Database db, StoreOptions options) throws SQLException {
    return new SingleWriter(db, this, options);
  }

  @Override
  public Connection connect(Database db, StoreOptions options) throws SQLException {
    boolean create = options.openMode() == OpenMode.CREATE;
    if (!create && !Files.isRegularFile(db.file())) {
      throw Failures.unavailable(
          "no Ratchet store at "
              + db.file()
              + " (nothing was created; opening it in create mode makes one)");
    }
    if (create) {
      createPrivately(db.file());
    }
    SQLiteConfig config = new SQLiteConfig();
    if (!create) {
      // Belt and braces: even if the file vanishes after the check above, nothing is created.
      config.resetOpenMode(SQLiteOpenMode.CREATE);
    }
    if (options.openMode() == OpenMode.READ_ONLY) {
      config.setReadOnly(true); // SQLITE_OPEN_READONLY: SQLite itself refuses every write
    }
    config.setBusyTimeout((int) options.busyTimeout().toMillis());
    // The store never asks for generated keys; left on, the driver runs an extra
    // "SELECT last_insert_rowid()" after every INSERT.
    config.setGetGeneratedKeys(false);
    config.setSynchronous(
        options.synchronous() == StoreOptions.Synchronous.FULL
            ? SQLiteConfig.SynchronousMode.FULL
            : SQLiteConfig.SynchronousMode.NORMAL);
    Connection c = config.createConnection("jdbc:sqlite:" + db.file());
    try {
      c.setAutoCommit(true);
      return StatementCache.wrap(c);
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  /**
   * Creates a missing store file empty with mode 0600 before SQLite opens it (SQLite makes an empty
   * file a new database, and gives its -wal and -shm files the database file's mode), so no other
   * local user can read the records or write the store.
   */
  private static void createPrivately(java.nio.file.Path file) {
    if (Files.exists(file)) {
      return;
    }
    try {
      Files.createFile(
          file,
          java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
              java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
    } catch (java.nio.file.FileAlreadyExistsException | UnsupportedOperationException e) {
      // Another opener made it first, or the file system has no POSIX modes: SQLite opens it.
    } catch (java.io.IOException e) {
      throw Failures.unavailable("cannot create the store file " + file, e);
    }
  }

  /** WAL lets readers run beside the one writer; it is persistent, so set it and verify it. */
  @Override
  public void prepareWriter(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("PRAGMA journal_mode=WAL")) {
      String mode = rs.next() ? rs.getString(1) : "";
      if (!"wal".equalsIgnoreCase(mode)) {
        throw new SQLException("journal_mode is '" + mode + "', WAL is required");
      }
    }
  }

  @Override
  public void beginWrite(Connection c) throws SQLException {
    execute(c, "BEGIN IMMEDIATE");
  }

  @Override
  public void beginRead(Connection c) throws SQLException {
    execute(c, "BEGIN DEFERRED");
  }

  @Override
  public void commit(Connection c) throws SQLException {
    execute(c, "COMMIT");
  }

  @Override
  public boolean rollback(Connection c) {
    try {
      execute(c, "ROLLBACK");
      return true;
    } catch (SQLException e) {
      // "no transaction is active" means SQLite already rolled back (e.g. after an I/O error).
      return e.getMessage() != null && e.getMessage().contains("no transaction is active");
    }
  }

  /** From the {@code sqlite} resources ({@link SchemaResources}); the same for every file. */
  private static final List<Migration> MIGRATIONS = SchemaResources.load("sqlite", Map.of());

  @Override
  public List<Migration> migrations(Database db) {
    return MIGRATIONS;
  }

  /** {@code BEGIN IMMEDIATE} already holds the file's write lock; the file is the namespace. */
  @Override
  public void beforeMigrating(Connection c, Database db) {}

  /** Writers are serialised by the file's write lock already. */
  @Override
  public void lock(Connection c, String key) {}

  @Override
  public boolean hasTable(Connection c, String table) throws SQLException {
    try (var ps =
        c.prepareStatement("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")) {
      ps.setString(1, table);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  @Override
  public long nowMillis(Connection c, InstantSource injected) {
    return injected.millis();
  }

  @Override
  public Writes writes() {
    return InlineWrites.INSTANCE;
  }

  @Override
  public boolean isUniqueViolation(SQLException e) {
    int code = e instanceof SQLiteException se ? se.getResultCode().code : e.getErrorCode();
    if (code == SQLITE_CONSTRAINT_UNIQUE || code == SQLITE_CONSTRAINT_PRIMARYKEY) {
      return true;
    }
    // Without extended result codes only the primary code and the message tell.
    String m = e.getMessage() == null ? "" : e.getMessage();
    return code == SQLITE_CONSTRAINT
        && (m.contains("UNIQUE constraint") || m.contains("PRIMARY KEY constraint"));
  }

  /** Prepared, so the connection's {@link StatementCache} compiles each bracket once. */
  private static void execute(Connection c, String sql) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.execute();
    }
  }
}
