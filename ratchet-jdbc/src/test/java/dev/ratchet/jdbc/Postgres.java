package dev.ratchet.jdbc;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The local PostgreSQL service the tests use: {@code RATCHET_PG_URL} (default {@code
 * jdbc:postgresql://127.0.0.1:5432/test}) reached as the superuser {@code RATCHET_PG_ADMIN}
 * (default {@code postgres}) to create roles and schemas. Every test class works in schemas of its
 * own ({@link PgSchema}), so parallel runs and reruns never meet. Three roles are shared by all
 * runs and created on first use: an owner, a worker and an inspector (docs/store.md).
 */
final class Postgres {
  static final String URL = env("RATCHET_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test");
  static final String ADMIN = env("RATCHET_PG_ADMIN", "postgres");
  static final boolean REQUIRED = "true".equalsIgnoreCase(System.getenv("CI"));

  static final String OWNER = "ratchet_test_owner";
  static final String WORKER = "ratchet_test_worker";
  static final String INSPECTOR = "ratchet_test_inspector";
  static final String OPERATOR = "ratchet_test_operator";
  static final String PASSWORD = "ratchet-test-only";

  /** Schemas of test runs are named {@code ratchet_t_<epoch seconds>_<random>}. */
  static final String SCHEMA_PREFIX = "ratchet_t_";

  private static final SecureRandom RANDOM = new SecureRandom();
  private static volatile String problem;
  private static volatile boolean checked;

  private Postgres() {}

  private static String env(String name, String fallback) {
    String v = System.getenv(name);
    return v == null || v.isBlank() ? fallback : v;
  }

  /** Null when the server answers and the roles exist; otherwise why not. Checked once. */
  static synchronized String problem() {
    if (!checked) {
      checked = true;
      try (Connection c = admin()) {
        createRoles(c);
        dropStaleSchemas(c);
      } catch (SQLException | RuntimeException e) {
        problem = e.toString();
      }
    }
    return problem;
  }

  static Connection admin() throws SQLException {
    return connect(URL, ADMIN);
  }

  static Connection connect(String url, String user) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", user);
    p.setProperty("password", PASSWORD);
    p.setProperty("connectTimeout", "3");
    return DriverManager.getConnection(url, p);
  }

  /** A fresh unique schema name. */
  static String newSchemaName() {
    return SCHEMA_PREFIX
        + java.time.Instant.now().getEpochSecond()
        + "_"
        + Long.toString(RANDOM.nextLong() & Long.MAX_VALUE, 36);
  }

  /** The shared login roles, created idempotently (another run may create them at once). */
  static void createRoles(Connection c) throws SQLException {
    for (String role : List.of(OWNER, WORKER, INSPECTOR, OPERATOR)) {
      exec(
          c,
          "DO $$ BEGIN CREATE ROLE "
              + role
              + " LOGIN PASSWORD '"
              + PASSWORD
              + "'; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$");
    }
  }

  /** Schemas left by killed runs more than six hours ago. */
  private static void dropStaleSchemas(Connection c) throws SQLException {
    long cutoff = java.time.Instant.now().getEpochSecond() - 6 * 3600;
    List<String> stale = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT nspname FROM pg_namespace WHERE nspname LIKE '" + SCHEMA_PREFIX + "%'")) {
      while (rs.next()) {
        String name = rs.getString(1);
        String[] parts = name.substring(SCHEMA_PREFIX.length()).split("_");
        try {
          if (Long.parseLong(parts[0]) < cutoff) {
            stale.add(name);
          }
        } catch (NumberFormatException e) {
          // not one of ours
        }
      }
    }
    for (String name : stale) {
      exec(c, "DROP SCHEMA IF EXISTS " + name + " CASCADE");
    }
  }

  static void exec(Connection c, String... statements) throws SQLException {
    try (Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }
}
