package dev.ratchet.cli;

import static dev.ratchet.cli.WorkerProcessTest.ordersTask;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 42's fork must-show with real processes on SQLite and the reference ledger service: a run
 * orders widgets and a gadget (receipts in the service), waits for approval of a payment and is
 * cancelled (frozen for review); {@code ratchet fork --from-step 1} (before the gadget order) makes
 * a new run that a {@code ratchet worker} drives through the plan again: the gadget order is
 * replayed from the inherited receipt, so the ledger, which counts every order appended, holds one
 * gadget order and the fork completes against a verifier that expects exactly two orders. The
 * canary — the same fork driven over a store that drops the inherited receipts (a harness entry
 * point) — appends the gadget order a second time.
 */
class ForkProcessTest {
  @TempDir Path dir;

  @Test
  void aForkReplaysTheOrderFromItsReceiptAndTheCanaryOrdersTwice() throws Exception {
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve("fork"))).keys();
    Path operator = c.operator("olga");
    try (ReferenceService svc = ReferenceService.start(c.cwd.resolve("ledger.db"), 0)) {
      Path task = ordersTask(c, svc);
      ok(c.run("submit", "" + task, "--run-id", "o1", "--operator-key", "" + operator));
      ok(c.run("worker", "--worker-id", "w1", "--poll", "100ms", "--once"));
      assertThat(gadgets(svc)).as("the source ordered the gadget once").isEqualTo(1);
      assertThat(svc.orders()).hasSize(2);

      ok(c.run("cancel", "o1", "--key", "" + operator, "--reason", "wrong supplier"));
      ok(c.run("worker", "--worker-id", "w2", "--poll", "100ms", "--once"));
      assertThat(c.run("status", "o1").out()).contains("awaiting_review (cancel_requested)");

      // Step 0 is older than the retained checkpoints: refused with the reason, nothing made.
      ProcessCli.Result gone =
          c.run("fork", "o1", "--from-step", "0", "--run-id", "f0", "--key", "" + operator);
      assertThat(gone.exit()).as(gone.all()).isNotZero();
      assertThat(gone.err()).contains("no longer retains a checkpoint of run o1 at step 0");
      assertThat(c.run("status", "f0").exit()).isNotZero();

      ProcessCli.Result forked =
          c.run("fork", "o1", "--from-step", "1", "--run-id", "f1", "--key", "" + operator);
      ok(forked);
      assertThat(forked.out()).contains("run f1 forked from run o1 at step 1", "by olga");
      // The same fork again: f1 is scheduled, so it is no interrupted fork to repair (issue 42).
      ProcessCli.Result twice =
          c.run("fork", "o1", "--from-step", "1", "--run-id", "f1", "--key", "" + operator);
      assertThat(twice.exit()).as(twice.all()).isEqualTo(2);
      assertThat(twice.err())
          .contains("--run-id: run 'f1' already exists and has a scheduling row");
      // A worker JVM killed for real while replaying the inherited gadget order (ADR 0130's
      // window 5): the use mark was not durable; the next worker replays from the same receipt.
      ProcessCli.Started crashing =
          c.startMain(
              ProcessCli.CRASHING_WORKER,
              "--worker-id",
              "w3",
              "--lease-ttl",
              "2s",
              "--poll",
              "100ms",
              "--crash-at",
              "INHERITED_REPLAY_BEFORE_COMMIT");
      WorkerProcessTest.await(
          crashing, o -> o.contains("CRASH INHERITED_REPLAY_BEFORE_COMMIT"), true);
      crashing.process().destroyForcibly(); // SIGKILL
      assertThat(crashing.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(crashing.process().exitValue()).isEqualTo(137);
      assertThat(gadgets(svc)).isEqualTo(1);
      Thread.sleep(2_500); // the killed worker's 2 s lease lapses
      ok(c.run("worker", "--worker-id", "w3b", "--poll", "100ms", "--once"));
      assertThat(c.run("trace", "f1").out()).contains("replayed");
      ok(c.run("approve", "f1", "--approver", "alice"));
      ok(c.run("worker", "--worker-id", "w4", "--poll", "100ms", "--once"));
      assertThat(c.run("status", "f1").out()).contains("completed");
      assertThat(gadgets(svc)).as("replayed from the inherited receipt, never sent").isEqualTo(1);
      assertThat(svc.orders()).hasSize(2);

      // The canary: the same fork, driven without its inherited receipts, orders again.
      ok(c.run("fork", "o1", "--from-step", "1", "--run-id", "f2", "--key", "" + operator));
      ProcessCli.Result canary =
          c.runMain(
              "dev.ratchet.harness.fork.InheritanceDroppingMain", "--home", "" + c.home(), "f2");
      assertThat(canary.out()).as(canary.all()).contains("canary run f2");
      assertThat(gadgets(svc)).as("the canary sends the gadget order again").isEqualTo(2);
    }
  }

  private static long gadgets(ReferenceService svc) {
    List<JsonObject> orders = svc.orders();
    return orders.stream().filter(o -> o.toString().contains("\"gadget\"")).count();
  }

  private static void ok(ProcessCli.Result r) {
    assertThat(r.exit()).as(r.all()).isZero();
  }
}
