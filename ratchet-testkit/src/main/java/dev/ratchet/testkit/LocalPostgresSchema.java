package dev.ratchet.testkit;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A schema of its own on the machine's shared PostgreSQL service for each test, dropped after it.
 * Register with {@code @RegisterExtension final LocalPostgresSchema pg = new
 * LocalPostgresSchema("prefix");}. When the server does not answer the test fails if {@code
 * CI=true} (PostgreSQL tests must run in CI) and is skipped with a printed reason elsewhere.
 */
public final class LocalPostgresSchema implements BeforeEachCallback, AfterEachCallback {
  /** The shared service's {@code test} database. */
  public static final String URL = "jdbc:postgresql://127.0.0.1:5432/test";

  /** Its superuser (trust authentication on this machine). */
  public static final String ADMIN = "postgres";

  private final String prefix;
  private String schema;

  public LocalPostgresSchema(String prefix) {
    this.prefix = prefix;
  }

  /** This test's schema name (set before each test). */
  public String schema() {
    if (schema == null) {
      throw new IllegalStateException("the schema exists only while a test runs");
    }
    return schema;
  }

  /** A connection as {@link #ADMIN}. */
  public Connection admin() throws SQLException {
    return DriverManager.getConnection(URL, ADMIN, null);
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    try (Connection c = admin()) {
      if (!c.isValid(5)) {
        throw new SQLException("connection is not valid");
      }
      schema = prefix + "_" + ProcessHandle.current().pid() + "_" + System.nanoTime() % 100_000;
    } catch (SQLException e) {
      String reason = "PostgreSQL at " + URL + " is not reachable (" + e.getMessage() + ")";
      if ("true".equals(System.getenv("CI"))) {
        throw new IllegalStateException("CI=true requires " + reason, e);
      }
      System.err.println(
          "SKIPPED " + context.getDisplayName() + ": " + reason + "; set CI=true to require it");
      Assumptions.abort(reason);
    }
  }

  @Override
  public void afterEach(ExtensionContext context) throws SQLException {
    if (schema == null) {
      return;
    }
    try (Connection c = admin();
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    } finally {
      schema = null;
    }
  }
}
