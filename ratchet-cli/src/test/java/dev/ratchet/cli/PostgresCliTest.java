package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.testkit.LocalPostgresSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line on the local PostgreSQL service (127.0.0.1:5432, database {@code test}), in a
 * schema of its own: required when {@code CI=true}, skipped with a printed reason elsewhere.
 */
class PostgresCliTest {
  @RegisterExtension final LocalPostgresSchema pg = new LocalPostgresSchema("cli_test");

  @TempDir Path dir;

  @Test
  void aRunOnPostgresStopsForApprovalVerifiesAndReportsItsStatusAsJson() throws Exception {
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve("pg")));
    c.env.put("RATCHET_PG_USER", LocalPostgresSchema.ADMIN);
    c.env.put("RATCHET_PG_SCHEMA", pg.schema());
    String store = "--store=" + LocalPostgresSchema.URL;
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
