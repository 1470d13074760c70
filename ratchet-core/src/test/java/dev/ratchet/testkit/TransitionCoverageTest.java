package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.read;
import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.Phase;
import dev.ratchet.model.PhaseTransitions;
import dev.ratchet.model.PhaseTransitions.Transition;
import dev.ratchet.model.ReviewDecision;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.store.Fence;
import dev.ratchet.store.RecordMac;
import dev.ratchet.store.RecordSet;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Every row of the transition table is exercised by a real run; the rows are recognised from the
 * committed traces, so a row the runtime never takes fails this test.
 */
class TransitionCoverageTest {
  private final Set<Transition> seen = new HashSet<>();
  private long seed = 900;

  private void scenario(Budgets budgets, String[] approvals, Consumer<Ctx> body) {
    RuntimeFixture f = RuntimeFixture.inMemory(seed++);
    TaskSpec task = f.task(budgets, approvals);
    InMemoryWorkspace ws = f.workspace();
    Run run = f.ratchet("w1").start(task, "run-1", ws);
    try {
      body.accept(new Ctx(f, task, ws, run));
    } catch (RuntimeException expected) {
      // Terminal refusals end some scenarios; the trace is what counts.
    }
    Phase phase = Phase.RUNNING;
    for (var r : f.store.records(task.taskId(), "run-1", RecordSet.TRACE, 1, 10_000)) {
      TraceEvent e = TraceEvent.fromJson(RecordMac.strip(r), "trace");
      for (Transition t : PhaseTransitions.TABLE) {
        if (t.from() == phase && t.outcome() == e.outcome()) {
          seen.add(t);
          phase = t.to();
          break;
        }
      }
    }
  }

  record Ctx(RuntimeFixture f, TaskSpec task, InMemoryWorkspace ws, Run run) {}

  private static final Budgets ROOMY = new Budgets(500, 100, 86_400_000L, 1_000);

  @Test
  void everyTransitionOfTheTableIsExercised() {
    scenario(
        ROOMY,
        new String[0],
        c -> {
          c.run().apply(c.run().action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
          c.run().apply(c.run().action("a2", "run_tests", Scenarios.tests()));
          c.run().apply(c.run().action("a3", "finish", JsonObject.EMPTY));
        });
    scenario(
        ROOMY,
        new String[0],
        c -> c.run().apply(c.run().action("a1", "cancel", Scenarios.cancel("stop"))));
    scenario(
        new Budgets(1, 1, 86_400_000L, 1_000),
        new String[0],
        c -> c.run().apply(c.run().action("a1", "read_file", read("app.py"))));
    scenario(
        new Budgets(5, 1, 86_400_000L, 1_000),
        new String[0],
        c -> {
          c.run().apply(c.run().action("a1", "read_file", read("app.py")));
          c.run().apply(c.run().action("a2", "read_file", read("app.py")));
        });
    scenario(
        new Budgets(5, 5, 1_000, 1_000),
        new String[0],
        c -> {
          c.f().clock.advance(Duration.ofSeconds(2));
          c.run().apply(c.run().action("a1", "read_file", read("app.py")));
        });
    scenario(
        new Budgets(5, 5, 86_400_000L, 10),
        new String[0],
        c -> {
          c.run().reportCost(11);
          c.run().apply(c.run().action("a1", "read_file", read("app.py")));
        });
    for (String decision : new String[] {ReviewDecision.REPLAN, ReviewDecision.ABORT}) {
      scenario(
          ROOMY,
          new String[0],
          c -> {
            String key =
                c.run()
                    .propose(c.run().action("a1", "write_file", write("app.py", "x\n")))
                    .action()
                    .idempotencyKey();
            c.ws()
                .execute(
                    new WriteIntent(
                        c.ws().namespace(),
                        "write_file",
                        write("app.py", "y\n"),
                        "reversible_write"),
                    key,
                    new Fence("run-1", "intruder", 1),
                    ApprovalBinding.NONE);
            c.run().execute("a1");
            c.f()
                .deliverDecision(
                    c.run().state(),
                    c.f().decision(c.run(), c.task(), decision, c.ws().observe().revision()),
                    c.f().reviewerKey);
            c.run().resolveReview();
          });
    }
    scenario(
        ROOMY,
        new String[0],
        c -> {
          // An unreceipted write (D23) started, the worker died: uncertain_effect.
          c.run().close();
          UnreceiptedAppend a = new UnreceiptedAppend(c.ws());
          Run r = c.f().ratchet("w2").resume(c.task(), "run-1", a);
          r.propose(r.action("a1", "append_file", write("log.txt", "deployed\n")));
          CrashPlan plan = new CrashPlan();
          c.ws().crashSeam(plan);
          plan.arm(dev.ratchet.seam.CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT);
          org.assertj.core.api.Assertions.catchThrowable(() -> r.execute("a1"));
          c.f().clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
          c.f().ratchet("w3").resume(c.task(), "run-1", a);
        });
    scenario(
        ROOMY,
        new String[0],
        c -> {
          c.run().apply(c.run().action("a1", "read_file", read("app.py")));
          c.ws().externalWrite("log.txt", "drift\n");
          c.run().close();
          c.f().ratchet("w2").resume(c.task(), "run-1", c.ws());
        });
    scenario(
        ROOMY,
        new String[] {"write_file"},
        c -> {
          // A same-intent receipt that does not name the consumed approval goes to review.
          String key =
              c.run()
                  .propose(
                      c.run().action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)))
                  .action()
                  .idempotencyKey();
          Receipt r =
              c.ws()
                  .execute(
                      new WriteIntent(
                          c.ws().namespace(),
                          "write_file",
                          write("app.py", RuntimeFixture.FIXED),
                          "reversible_write"),
                      key,
                      new Fence("run-1", "intruder", 1),
                      ApprovalBinding.NONE)
                  .receipt();
          c.f().clock.advance(Duration.ofMinutes(5));
          c.f().ratchet("w2").resume(c.task(), "run-1", c.ws());
          assertThat(r.approvalFingerprint()).isNull();
        });
    for (boolean pending : new boolean[] {false, true}) {
      scenario(
          ROOMY,
          new String[0],
          c -> {
            // An operator's signed cancel: cancelled, or frozen for review with a write pending.
            if (pending) {
              c.run().propose(c.run().action("a1", "write_file", write("app.py", "x\n")));
            }
            c.run().close();
            c.f().deliverCancel(c.task(), "run-1", c.f().operatorKey, "cancel-1");
            c.f().ratchet("w2").resume(c.task(), "run-1", c.ws());
          });
    }
    scenario(
        ROOMY,
        new String[0],
        c -> {
          // D37: paused at a step boundary, then unpaused.
          c.run().close();
          var pause = dev.ratchet.model.PauseDecision.Kind.PAUSE;
          c.f().deliverPause(pause, c.task(), "run-1", c.f().operatorKey, "pause-1");
          c.f().ratchet("w2").resume(c.task(), "run-1", c.ws()).close();
          var unpause = dev.ratchet.model.PauseDecision.Kind.UNPAUSE;
          c.f().deliverPause(unpause, c.task(), "run-1", c.f().operatorKey, "unpause-1");
          c.f().ratchet("w3").resume(c.task(), "run-1", c.ws()).close();
        });
    scenario(
        ROOMY,
        new String[0],
        c -> {
          // D37: a paused run cancelled directly, without an unpause first.
          c.run().close();
          var pause = dev.ratchet.model.PauseDecision.Kind.PAUSE;
          c.f().deliverPause(pause, c.task(), "run-1", c.f().operatorKey, "pause-1");
          c.f().ratchet("w2").resume(c.task(), "run-1", c.ws()).close();
          c.f().deliverCancel(c.task(), "run-1", c.f().operatorKey, "cancel-1");
          c.f().ratchet("w3").resume(c.task(), "run-1", c.ws()).close();
        });
    scenario(
        ROOMY,
        new String[0],
        c -> {
          // A driver gives up on a permission refusal (ADR 0050).
          try {
            c.run().propose(c.run().action("a1", "write_file", write("secret.txt", "x\n")));
          } catch (dev.ratchet.error.RatchetException e) {
            c.run().fail(e);
          }
        });
    assertThat(seen).containsExactlyInAnyOrderElementsOf(PhaseTransitions.TABLE);
  }
}
