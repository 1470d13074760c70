package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line on the local PostgreSQL service (127.0.0.1:5432, database {@code test}), in a
 * schema of its own: required when {@code CI=true}, skipped with a printed reason elsewhere.
 */
class PostgresCliTest {
  private static final String URL = "jdbc:postgresql://127.0.0.1:5432/test";
  private static final String USER = "postgres";

  @TempDir Path dir;
  private String schema;

  @BeforeEach
  void requirePostgres() {
    try (Connection c = DriverManager.getConnection(URL, USER, null)) {
      if (!c.isValid(5)) {
        throw new SQLException("connection is not valid");
      }
      schema = "cli_test_" + ProcessHandle.current().pid() + "_" + System.nanoTime() % 100_000;
    } catch (SQLException e) {
      String reason = "PostgreSQL at " + URL + " is not reachable (" + e.getMessage() + ")";
      if ("true".equals(System.getenv("CI"))) {
        throw new IllegalStateException("CI=true requires " + reason, e);
      }
      System.err.println("SKIPPED PostgresCliTest: " + reason + "; set CI=true to require it");
      Assumptions.abort(reason);
    }
  }

  @AfterEach
  void dropSchema() throws SQLException {
    if (schema == null) {
      return;
    }
    try (Connection c = DriverManager.getConnection(URL, USER, null);
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
  }

  @Test
  void aRunOnPostgresStopsForApprovalVerifiesAndReportsItsStatusAsJson() throws Exception {
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve("pg")));
    c.env.put("RATCHET_PG_USER", USER);
    c.env.put("RATCHET_PG_SCHEMA", schema);
    String store = "--store=" + URL;
    assertThat(c.run("keys", "generate").exit()).isZero();
    Path task = Path.of("..", "examples", "workspace", "repair-greeting.json").toAbsolutePath();
    ProcessCli.Result run = c.run("run", task.toString(), store, "--run-id", "r1");
    assertThat(run.exit()).as(run.all()).isEqualTo(4); // frozen: waiting for an approval
    assertThat(run.all()).contains("waiting for approval");

    ProcessCli.Result verify = c.run("verify", "r1", store);
    assertThat(verify.exit()).as(verify.all()).isZero();
    assertThat(verify.out()).contains("verified at generation");

    ProcessCli.Result status = c.run("status", "r1", store, "--json");
    assertThat(status.exit()).as(status.all()).isZero();
    assertThat(status.out()).contains("\"run_id\":\"r1\"").contains("\"phase\":\"running\"");

    // The same store is a different database from a SQLite one: resume on the default store
    // finds nothing and creates nothing.
    assertThat(c.run("resume", "r1").exit()).isNotZero();
    assertThat(c.cwd.resolve(".ratchet/ratchet.db")).doesNotExist();
  }
}
