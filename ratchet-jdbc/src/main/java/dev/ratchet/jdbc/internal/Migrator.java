package dev.ratchet.jdbc.internal;

import dev.ratchet.jdbc.OpenMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Versioned schema migrations, applied on open. The order is chosen so that refusing changes
 * nothing: inspect first (is this a Ratchet store, and not newer than this code?), and only then
 * configure the writer (WAL) and migrate, all pending versions in one transaction that first takes
 * the dialect's migration lock (SQLite's write lock; a PostgreSQL advisory lock) and re-reads the
 * version under it.
 */
final class Migrator {
  static final String TABLE = "ratchet_schema";

  private Migrator() {}

  static int migrate(Side side) {
    Dialect d = side.dialect();
    List<Migration> migrations = d.migrations(side.database());
    int known = migrations.get(migrations.size() - 1).version();
    boolean create = side.options().openMode() == OpenMode.CREATE;
    int found = side.raw("reading the schema version", c -> version(d, c));
    if (found < 0 && !create) {
      throw Failures.unavailable(
          side.describe()
              + " is not an initialised Ratchet store (no "
              + TABLE
              + " table); nothing was changed");
    }
    refuseNewer(side, found, known);
    if (side.options().openMode() == OpenMode.READ_ONLY) {
      if (found != known) {
        throw Failures.unavailable(
            side.describe()
                + " is at schema version "
                + found
                + ", this build needs "
                + known
                + ": a read-only open never migrates; nothing was changed");
      }
      return found; // a reader configures no writer
    }
    side.raw(
        "configuring the writer",
        c -> {
          d.prepareWriter(c);
          return null;
        });
    if (found == known) {
      return found; // up to date: no write transaction needed
    }
    return side.write(
        "migrating the schema",
        c -> {
          d.beforeMigrating(c, side.database());
          int current = version(d, c); // again, under the write lock: another process may migrate
          refuseNewer(side, current, known);
          if (current < 0) {
            execute(
                c,
                "CREATE TABLE "
                    + TABLE
                    + " (version INTEGER PRIMARY KEY, description TEXT NOT NULL)");
            current = 0;
          }
          for (Migration m : migrations) {
            if (m.version() > current) {
              apply(c, m);
              current = m.version();
            }
          }
          return current;
        });
  }

  /** The applied version; 0 for an empty bookkeeping table, -1 when there is none. */
  private static int version(Dialect d, Connection c) throws SQLException {
    if (!d.hasTable(c, TABLE)) {
      return -1;
    }
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COALESCE(MAX(version), 0) FROM " + TABLE)) {
      rs.next();
      return rs.getInt(1);
    }
  }

  /**
   * A newer schema may hold rows this code cannot interpret (and older code must not write into
   * it), so the store is unavailable to this version of Ratchet: fail closed with the reason.
   */
  private static void refuseNewer(Side side, int found, int known) {
    if (found > known) {
      throw Failures.unavailable(
          side.describe()
              + " has schema version "
              + found
              + ", newer than this Ratchet understands (up to "
              + known
              + "): upgrade Ratchet; the store was not changed");
    }
  }

  private static void apply(Connection c, Migration m) throws SQLException {
    for (String sql : m.statements()) {
      execute(c, sql);
    }
    try (PreparedStatement ps =
        c.prepareStatement("INSERT INTO " + TABLE + " (version, description) VALUES (?, ?)")) {
      ps.setInt(1, m.version());
      ps.setString(2, m.description());
      ps.executeUpdate();
    }
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
