package dev.ratchet.chaos;

import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.PostgresAccess;
import dev.ratchet.jdbc.StoreOptions;
import dev.ratchet.testkit.ThrowawayPostgres;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * A PostgreSQL server the contention campaign works on: the shared service at {@code
 * RATCHET_PG_URL} (default {@code jdbc:postgresql://127.0.0.1:5432/test}, superuser {@code
 * RATCHET_PG_ADMIN}, default {@code postgres}), or a {@link ThrowawayPostgres} of the trial's own.
 * The superuser creates two login roles (an owner and a worker, shared by all runs, created on
 * first use) and, per trial, a fresh schema {@code ratchet_c_<epoch seconds>_<random>} that the
 * owner migrates and grants to the worker (docs/store.md, roles) and that is dropped at the end of
 * the trial (schemas older than six hours, left by killed campaigns, are swept).
 */
final class PgServer {
  static final String SHARED_URL = env("RATCHET_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test");
  static final String ADMIN = env("RATCHET_PG_ADMIN", "postgres");
  static final String OWNER = "ratchet_chaos_owner";
  static final String WORKER = "ratchet_chaos_worker";
  static final String PASSWORD = "ratchet-chaos-only";
  static final String PREFIX = "ratchet_c_";
  private static final SecureRandom RANDOM = new SecureRandom();

  private PgServer() {}

  private static String env(String name, String fallback) {
    String v = System.getenv(name);
    return v == null || v.isBlank() ? fallback : v;
  }

  /** True when the environment says PostgreSQL is required ({@code CI=true}). */
  static boolean required() {
    return "true".equalsIgnoreCase(System.getenv("CI"));
  }

  /** Null when the shared server answers the superuser; otherwise why not. */
  static String problem() {
    try (Connection c = connect(SHARED_URL, ADMIN)) {
      exec(c, "SELECT 1");
      return null;
    } catch (SQLException | RuntimeException e) {
      return e.toString();
    }
  }

  static Connection connect(String url, String user) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", user);
    p.setProperty("password", PASSWORD);
    p.setProperty("connectTimeout", "3");
    return DriverManager.getConnection(url, p);
  }

  static void exec(Connection c, String... statements) throws SQLException {
    try (Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }

  static Database as(String url, String schema, String role, int pool) {
    return Database.postgres(url, role, PASSWORD).withSchema(schema).withPoolSize(pool);
  }

  /** A new schema on {@code url}, migrated by the owner and granted to the worker role. */
  static String createSchema(String url) throws SQLException {
    String name =
        PREFIX
            + Instant.now().getEpochSecond()
            + "_"
            + Long.toString(RANDOM.nextLong() & Long.MAX_VALUE, 36);
    try (Connection c = connect(url, ADMIN)) {
      for (String role : List.of(OWNER, WORKER)) {
        exec(
            c,
            "DO $$ BEGIN CREATE ROLE "
                + role
                + " LOGIN PASSWORD '"
                + PASSWORD
                + "'; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$");
      }
      sweep(c);
      exec(c, "CREATE SCHEMA " + name + " AUTHORIZATION " + OWNER);
    }
    Database owner = as(url, name, OWNER, 2);
    JdbcStore.open(owner, options().withOpenMode(OpenMode.CREATE)).close();
    PostgresAccess.grantWorker(owner, WORKER);
    return name;
  }

  /** Store options on PostgreSQL: the clock is ignored there (leases are on the database clock). */
  static StoreOptions options() {
    return StoreOptions.defaults(InstantSource.fixed(Instant.EPOCH));
  }

  static void dropSchema(String url, String name) {
    try (Connection c = connect(url, ADMIN)) {
      exec(c, "DROP SCHEMA IF EXISTS " + name + " CASCADE");
    } catch (SQLException e) {
      // left for the sweep of a later run
    }
  }

  private static void sweep(Connection c) throws SQLException {
    long cutoff = Instant.now().getEpochSecond() - 6 * 3600;
    List<String> stale = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT nspname FROM pg_namespace WHERE nspname LIKE '" + PREFIX + "%'")) {
      while (rs.next()) {
        String n = rs.getString(1);
        try {
          if (Long.parseLong(n.substring(PREFIX.length()).split("_")[0]) < cutoff) {
            stale.add(n);
          }
        } catch (NumberFormatException e) {
          // not one of ours
        }
      }
    }
    for (String n : stale) {
      exec(c, "DROP SCHEMA IF EXISTS " + n + " CASCADE");
    }
  }
}
