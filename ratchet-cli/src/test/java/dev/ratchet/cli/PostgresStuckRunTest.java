package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.json.Canonical;
import dev.ratchet.testkit.LocalPostgresSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39, "no loop without an exit", as an operator meets it: a submitted run whose write's
 * {@code expected_sha256} never matches the file is driven by a real {@code ratchet worker} JVM on
 * PostgreSQL. The worker re-observes once, is refused again and ends the run {@code failed} with
 * the reason (ADR 0050); a second worker finds nothing to claim, so nothing loops. Required when
 * {@code CI=true} ({@link LocalPostgresSchema}).
 */
class PostgresStuckRunTest {
  @RegisterExtension final LocalPostgresSchema pg = new LocalPostgresSchema("stuck_cli");

  @TempDir Path dir;

  @Test
  void aStaleObservationRunDrivenByAWorkerEndsFailedOnItsOwnAndIsNotClaimedAgain()
      throws Exception {
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve("stuck"))).keys();
    Path key = c.operator("olga");
    c.env.put("RATCHET_PG_USER", LocalPostgresSchema.ADMIN);
    c.env.put("RATCHET_PG_SCHEMA", pg.schema());
    String store = "--store=" + LocalPostgresSchema.URL;
    ProcessCli.Result init = c.run("db", "init", store);
    assertThat(init.exit()).as(init.all()).isZero();
    Path ws = Files.createDirectories(c.cwd.resolve("ws"));
    Files.writeString(ws.resolve("app.py"), "print(1)\n");
    Files.writeString(ws.resolve("notes.txt"), "actual\n");
    Path task =
        NoStuckRunTest.task(
            c, ws, "notes.txt", Canonical.sha256Hex("what the task author believed\n"));
    ProcessCli.Result submit =
        c.run("submit", "" + task, store, "--run-id", "st1", "--operator-key", "" + key);
    assertThat(submit.exit()).as(submit.all()).isZero();

    ProcessCli.Result worker =
        c.run("worker", store, "--worker-id", "w1", "--poll", "100ms", "--once");
    assertThat(worker.exit()).as(worker.all()).isZero();
    assertThat(worker.err()).contains("worker w1 claimed run st1").contains("run st1: ended");
    ProcessCli.Result status = c.run("status", "st1", store);
    assertThat(status.out()).as(status.all()).contains("failed");
    ProcessCli.Result trace = c.run("trace", "st1", store, "--json");
    assertThat(trace.out())
        .as(trace.all())
        .contains("refused_by_adapter")
        .contains("permanently_refused");
    assertThat(Files.readString(ws.resolve("notes.txt"))).as("never written").isEqualTo("actual\n");

    ProcessCli.Result second =
        c.run("worker", store, "--worker-id", "w2", "--poll", "100ms", "--once");
    assertThat(second.exit()).as(second.all()).isZero();
    assertThat(second.err())
        .as("an ended run is not claimed again")
        .doesNotContain("claimed run st1");
  }
}
