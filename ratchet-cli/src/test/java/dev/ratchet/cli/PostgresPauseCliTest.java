package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.testkit.LocalPostgresSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 42 (D37), on the local PostgreSQL service with real {@code ratchet} processes: a run paused
 * by an operator's signed pause stays paused — no worker claims it — while two workers run, until a
 * signed unpause; then one worker finishes it. Required when {@code CI=true} ({@link
 * LocalPostgresSchema}).
 */
class PostgresPauseCliTest {
  @RegisterExtension final LocalPostgresSchema pg = new LocalPostgresSchema("pause_cli");

  @TempDir Path dir;

  @Test
  void aPausedRunWithTwoWorkersStaysPausedUntilASignedUnpauseThenOneWorkerFinishesIt()
      throws Exception {
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve("pause"))).keys();
    c.operator("olga");
    c.env.put("RATCHET_PG_USER", LocalPostgresSchema.ADMIN);
    c.env.put("RATCHET_PG_SCHEMA", pg.schema());
    Path key = c.home().resolve("identities/operator/olga.key");
    String store = "--store=" + LocalPostgresSchema.URL;
    assertThat(c.run("db", "init", store).exit()).isZero();
    Path task = c.exampleTask("p", "write_file");
    ProcessCli.Result submit =
        c.run("submit", "" + task, store, "--run-id", "p1", "--operator-key", "" + key);
    assertThat(submit.exit()).as(submit.all()).isZero();

    ProcessCli.Started w1 = worker(c, store, "w1");
    ProcessCli.Started w2 = worker(c, store, "w2");
    try {
      awaitEither(w1, w2, "run p1: waiting (awaiting approval)", 60);
      // Paused while its write waits for approval: the write, once approved, completes first.
      ProcessCli.Result pause =
          c.run("pause", "p1", store, "--operator", "olga", "--reason", "vendor outage");
      assertThat(pause.exit()).as(pause.all()).isZero();
      assertThat(pause.out()).contains("pause of run p1 by olga").contains("delivered");
      ProcessCli.Result approve = c.run("approve", "p1", store, "--approver", "alice");
      assertThat(approve.exit()).as(approve.all()).isZero();
      awaitEither(w1, w2, "run p1: waiting (paused by an operator)", 30);

      ProcessCli.Result status = c.run("status", store);
      assertThat(status.out())
          .as(status.all())
          .contains("paused")
          .contains("p1: paused by olga: vendor outage");
      ProcessCli.Result waiting = c.run("status", store, "--waiting");
      assertThat(waiting.out()).as(waiting.all()).contains("p1").contains("ratchet unpause p1");
      ProcessCli.Result refused = c.run("pause", "p1", store, "--operator", "olga");
      assertThat(refused.exit()).as("a paused run is not paused twice").isEqualTo(2);

      int claims = claims(w1, w2);
      Thread.sleep(3_000); // both workers poll every 200 ms meanwhile
      assertThat(claims(w1, w2)).as("no worker claims the paused run").isEqualTo(claims);

      ProcessCli.Result unpause =
          c.run("unpause", "p1", store, "--operator", "olga", "--reason", "vendor back");
      assertThat(unpause.exit()).as(unpause.all()).isZero();
      awaitEither(w1, w2, "run p1: ended", 30);
      Thread.sleep(500);
      assertThat(count(w1.stderr() + w2.stderr(), "run p1: ended")).isEqualTo(1);
      assertThat(claims(w1, w2)).as("one claim drove it to the end").isEqualTo(claims + 1);
    } finally {
      for (ProcessCli.Started w : new ProcessCli.Started[] {w1, w2}) {
        w.process().destroy();
        w.process().waitFor(60, TimeUnit.SECONDS);
      }
    }
    ProcessCli.Result done = c.run("status", "p1", store);
    assertThat(done.out()).as(done.all()).contains("completed");
    ProcessCli.Result trace = c.run("trace", "p1", store);
    assertThat(trace.out())
        .as(trace.all())
        .contains("operator_paused")
        .contains("operator_unpaused");
    assertThat(count(trace.out(), "executed")).as("the write ran once").isGreaterThanOrEqualTo(1);
  }

  private static ProcessCli.Started worker(ProcessCli c, String store, String id)
      throws java.io.IOException {
    return c.start("worker", store, "--worker-id", id, "--poll", "200ms", "--lease-ttl", "5s");
  }

  private static int claims(ProcessCli.Started a, ProcessCli.Started b) throws java.io.IOException {
    return count(a.stderr() + b.stderr(), "claimed run p1 ");
  }

  private static int count(String text, String what) {
    Matcher m = Pattern.compile(Pattern.quote(what)).matcher(text);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  private static void awaitEither(
      ProcessCli.Started a, ProcessCli.Started b, String text, int seconds) throws Exception {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < until) {
      if (a.stderr().contains(text) || b.stderr().contains(text)) {
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError(
        "no '" + text + "' within " + seconds + " s:\n" + a.stderr() + "\n---\n" + b.stderr());
  }
}
