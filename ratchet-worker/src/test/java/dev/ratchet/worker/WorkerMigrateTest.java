package dev.ratchet.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.DecisionBinding;
import dev.ratchet.model.MigrateDecision;
import dev.ratchet.model.PauseDecision;
import dev.ratchet.model.SignedDecision;
import dev.ratchet.model.TaskDiff;
import dev.ratchet.model.TaskSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * D37 in the worker, on core's in-memory store: a paused run migrated to a new task version is
 * woken by the migration, recovered (the migration applied, the run still paused) and parked again
 * without driving it and without an error line; after a signed unpause the same driver and the same
 * opener, which still resumes with the task the run started with, drive it under the new task.
 */
class WorkerMigrateTest {
  private static final Duration TTL = Duration.ofSeconds(3);

  @Test
  void aMigratedRunIsDrivenUnderItsNewTaskWithNoSpecialCase() {
    try (WorkerFixture fx = new WorkerFixture(TTL)) {
      fx.store.schedule(fx.task.taskId(), "r1", "steps", "ref");
      List<String> versionsSeen = new ArrayList<>();
      Driver steps =
          new Driver() {
            @Override
            public String name() {
              return "steps";
            }

            @Override
            public DriveResult drive(DriveContext ctx) {
              Run run = ctx.run();
              versionsSeen.add(run.task().taskVersion());
              for (int i = 0; i < 2; i++) {
                long n = run.state().usage().proposals() + 1;
                run.apply(run.action("read-" + n, "read_file", read()));
              }
              return versionsSeen.size() == 1
                  ? DriveResult.yielded("two steps")
                  : DriveResult.ended("done");
            }
          };
      Worker w = fx.worker(steps, new WorkerOptions("w1", 1, Duration.ofMillis(50), TTL, true));
      assertThat(w.step()).isTrue();
      deliver(fx, pause(fx.task, PauseDecision.Kind.PAUSE, "pause-1"));
      assertThat(w.step()).as("recovery pauses the run; parked").isTrue();
      assertThat(w.step()).isFalse();

      TaskSpec v2 = narrower(fx.task);
      deliver(fx, migrate(fx, v2));
      assertThat(w.step()).as("the migration wakes the paused row").isTrue();
      assertThat(fx.ratchet.verify(v2, "r1", fx.workspace).taskVersion()).isEqualTo("v2");
      assertThat(w.step()).as("parked again, paused").isFalse();
      assertThat(versionsSeen).as("a paused run is not driven").hasSize(1);

      deliver(fx, pause(v2, PauseDecision.Kind.UNPAUSE, "unpause-1"));
      assertThat(w.step()).isTrue();
      assertThat(versionsSeen).containsExactly("2026-07-18-v1", "v2");
      assertThat(fx.lines()).contains("worker w1 run r1: ended (done)");
      assertThat(fx.lines().stream().filter(l -> l.contains("run r1: waiting")))
          .as("each claim of the paused row parks it, as a waiting run")
          .containsOnly("worker w1 run r1: waiting (paused by an operator)")
          .hasSize(2);
      assertThat(fx.lines())
          .noneMatch(l -> l.contains("error") || l.contains("refused") || l.contains("unexpected"));
    }
  }

  private static TaskSpec narrower(TaskSpec t) {
    return new TaskSpec(
        t.taskId(),
        "v2",
        t.policyId(),
        "v2",
        t.adapter(),
        t.permissions(),
        Set.of("read_file", "write_file", "run_tests"),
        t.targets(),
        t.approvalRequired(),
        new Budgets(
            t.budgets().maxProposals(),
            t.budgets().maxSteps() - 1,
            t.budgets().maxWallTimeMs(),
            t.budgets().maxCost()),
        t.environment(),
        t.verifier());
  }

  private static PauseDecision pause(TaskSpec t, PauseDecision.Kind kind, String nonce) {
    return new PauseDecision(
        kind,
        "olga",
        DecisionBinding.run(t.taskId(), "r1", t.policyId(), t.policyVersion()),
        "test",
        nonce);
  }

  private static MigrateDecision migrate(WorkerFixture fx, TaskSpec to) {
    TaskSpec from = fx.task;
    return new MigrateDecision(
        fx.f.operatorKey.label(),
        DecisionBinding.run(from.taskId(), "r1", from.policyId(), from.policyVersion()),
        from.fingerprint(),
        to.fingerprint(),
        to,
        TaskDiff.of(from, to).toJson(),
        null,
        "fixed task",
        "migrate-1");
  }

  private static void deliver(WorkerFixture fx, dev.ratchet.model.Decision d) {
    SignedDecision signed =
        SignedDecision.sign(
            d instanceof PauseDecision p
                ? new PauseDecision(
                    p.decision(), fx.f.operatorKey.label(), p.binding(), p.reason(), p.nonce())
                : d,
            fx.f.operatorKey);
    fx.store.deliver(fx.task.taskId(), "r1", signed.inboxItem());
  }

  private static JsonObject read() {
    return JsonObject.builder().put("path", "app.py").build();
  }
}
