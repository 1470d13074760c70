package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17's must-shows on SQLite with real processes: a {@code ratchet worker} JVM SIGKILLed right
 * after its first order reached the service (before the receipt was committed) and a second worker
 * finishes the run with no command typed, every order placed exactly once in the service's own
 * ledger; and {@code approve} alone (no {@code resume}) makes the running worker pay.
 */
class WorkerProcessTest {
  @TempDir Path dir;

  @Test
  void aKilledWorkersRunIsFinishedByAnotherAndApproveAloneLetsTheWritePass() throws Exception {
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve("worker"))).keys();
    Path operator = c.operator("olga");
    try (ReferenceService svc = ReferenceService.start(c.cwd.resolve("ledger.db"), 0)) {
      Path task = ordersTask(c, svc);
      ProcessCli.Result enqueued =
          c.run("submit", task.toString(), "--run-id", "o1", "--operator-key", "" + operator);
      assertThat(enqueued.exit()).as(enqueued.all()).isZero();
      assertThat(enqueued.out()).contains("run o1 of task").contains("submitted by olga");
      assertThat(svc.orders()).isEmpty();

      ProcessCli.Started first =
          c.startMain(
              ProcessCli.CRASHING_WORKER,
              "--worker-id",
              "w1",
              "--lease-ttl",
              "2s",
              "--poll",
              "100ms",
              "--crash-at",
              "BEFORE_RECEIPT_COMMIT");
      await(first, s -> s.contains("CRASH BEFORE_RECEIPT_COMMIT"), true);
      first.process().destroyForcibly(); // SIGKILL
      assertThat(first.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(first.process().exitValue()).isEqualTo(137);
      assertThat(first.stderr()).contains("worker w1 claimed run o1");
      // The first order reached the service; the receipt never reached the store.
      assertThat(svc.orders()).hasSize(1);

      ProcessCli.Started second = c.start("worker", "--worker-id", "w2", "--poll", "100ms");
      try {
        await(second, s -> s.contains("run o1: waiting (awaiting approval)"), false);
        assertThat(second.stderr()).contains("worker w2 claimed run o1");
        assertThat(svc.orders()).hasSize(2);
        assertThat(svc.orders().get(0).toString()).doesNotContain("\"status\":\"paid\"");

        ProcessCli.Result approve = c.run("approve", "o1", "--approver", "alice");
        assertThat(approve.exit()).as(approve.all()).isZero();
        // Issue 39: the hint is true to who drives the run: a worker, not 'ratchet resume'.
        assertThat(approve.out())
            .contains("a worker claims the run and executes the write (no resume needed)")
            .doesNotContain("'ratchet resume o1'");
        await(second, s -> s.contains("run o1: ended"), false);
      } finally {
        second.process().destroyForcibly();
        second.process().waitFor(30, TimeUnit.SECONDS);
      }
      // Each order once, the first one paid: no command but approve was typed after the submit.
      assertThat(svc.orders()).hasSize(2);
      assertThat(svc.orders().get(0).toString()).contains("\"status\":\"paid\"");
      assertThat(second.stderr()).contains("completed");
      assertThat(c.run("status", "o1").out()).contains("completed");
    }
  }

  @Test
  void sigtermDrainsTheWorkerWhichExitsZeroAndTheNextWorkerClaimsAtOnce() throws Exception {
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve("drain"))).keys();
    Path operator = c.operator("olga");
    try (ReferenceService svc = ReferenceService.start(c.cwd.resolve("ledger.db"), 0)) {
      Path task = ordersTask(c, svc);
      assertThat(
              c.run("submit", "" + task, "--run-id", "d1", "--operator-key", "" + operator).exit())
          .isZero();
      // A long lease: were it not released, the next worker could not claim for a minute.
      ProcessCli.Started first =
          c.start("worker", "--worker-id", "w1", "--lease-ttl", "60s", "--poll", "100ms");
      await(first, s -> s.contains("run d1: waiting (awaiting approval)"), false);
      first.process().destroy(); // SIGTERM
      assertThat(first.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(first.process().exitValue()).as(first.stderr()).isZero();
      assertThat(first.stderr()).contains("worker w1: shutdown requested, draining", "w1: drained");

      assertThat(c.run("approve", "d1", "--approver", "alice").exit()).isZero();
      ProcessCli.Result next =
          c.run("worker", "--worker-id", "w2", "--lease-ttl", "60s", "--poll", "100ms", "--once");
      assertThat(next.exit()).as(next.all()).isZero();
      assertThat(next.all()).contains("worker w2 claimed run d1");
      assertThat(c.run("status", "d1").out()).contains("completed");
      assertThat(svc.orders()).hasSize(2);
    }
  }

  @Test
  void sigtermMidStepLetsTheStepFinishReleasesTheLeaseAndExitsZero() throws Exception {
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve("midstep"))).keys();
    Path operator = c.operator("olga");
    try (ReferenceService svc = ReferenceService.start(c.cwd.resolve("ledger.db"), 0)) {
      Path task = ordersTask(c, svc);
      assertThat(
              c.run("submit", "" + task, "--run-id", "m1", "--operator-key", "" + operator).exit())
          .isZero();
      // The first write's intent is committed, its order not yet placed: the step is in flight.
      ProcessCli.Started first =
          c.startMain(
              ProcessCli.CRASHING_WORKER,
              "--worker-id",
              "w1",
              "--lease-ttl",
              "60s",
              "--poll",
              "100ms",
              "--pause-at",
              "AFTER_INTENT_COMMIT");
      await(first, s -> s.contains("PAUSE AFTER_INTENT_COMMIT"), true);
      assertThat(svc.orders()).isEmpty();
      first.process().destroy(); // SIGTERM while the step is in flight
      assertThat(first.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(first.process().exitValue()).as(first.stderr()).isZero();
      // The step finished: its order was placed once and its receipt committed before the release.
      assertThat(svc.orders()).hasSize(1);
      assertThat(first.stderr())
          .contains("worker w1: shutdown requested, draining")
          .contains("worker w1 run m1: yielded (stopped between steps)")
          .contains("worker w1 released run m1")
          .contains("worker w1: drained");

      // A 60 s lease: only a released one lets the next worker claim at once.
      ProcessCli.Result next =
          c.run("worker", "--worker-id", "w2", "--lease-ttl", "60s", "--poll", "100ms", "--once");
      assertThat(next.exit()).as(next.all()).isZero();
      assertThat(next.err()).contains("worker w2 claimed run m1");
      assertThat(next.err()).doesNotContain("lost");
      assertThat(svc.orders()).as("no order placed twice").hasSize(2);
    }
  }

  /** The HTTP example's task, connected to {@code svc}. */
  static Path ordersTask(ProcessCli c, ReferenceService svc) throws IOException {
    JsonObject example =
        (JsonObject) Json.parse(Files.readString(Path.of("../examples/http/acme-orders.json")));
    Path task = c.cwd.resolve("orders.json");
    Files.writeString(
        task,
        Canonical.string(
            example.with(
                "connect",
                JsonObject.builder()
                    .put("base_url", svc.uri().toString())
                    .put("client_secret_file", svc.clientSecretFile().toString())
                    .build())));
    return task;
  }

  /** Waits (bounded, generously) until the child's stdout or stderr satisfies {@code done}. */
  static void await(ProcessCli.Started p, Predicate<String> done, boolean stdout)
      throws IOException, InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < until) {
      String text = stdout ? p.stdout() : p.stderr();
      if (done.test(text)) {
        return;
      }
      if (!p.process().isAlive() && !done.test(stdout ? p.stdout() : p.stderr())) {
        break;
      }
      Thread.sleep(100);
    }
    throw new AssertionError(
        "the worker did not get there; stdout:\n" + p.stdout() + "\nstderr:\n" + p.stderr());
  }
}
