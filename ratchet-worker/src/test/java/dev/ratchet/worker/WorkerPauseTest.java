package dev.ratchet.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.DecisionBinding;
import dev.ratchet.model.PauseDecision;
import dev.ratchet.model.Phase;
import dev.ratchet.model.SignedDecision;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * D37 in the worker, on core's in-memory store: a pause delivered while a driver steps a run stops
 * the driver at its next step boundary (the worker asks at its renewal cadence); the next claim's
 * recovery pauses the run and the worker parks it without driving it; nothing claims it until a
 * signed unpause, after which the driver goes on from where it stopped.
 */
class WorkerPauseTest {
  private static final Duration TTL = Duration.ofSeconds(3);

  @Test
  void aPauseStopsTheDriverAtAStepBoundaryAndOnlyAnUnpauseMakesTheRunClaimableAgain()
      throws Exception {
    try (WorkerFixture fx = new WorkerFixture(TTL)) {
      fx.store.schedule(fx.task.taskId(), "r1", "steps", "ref");
      AtomicInteger calls = new AtomicInteger();
      List<Phase> phasesSeen = new ArrayList<>();
      Driver steps =
          new Driver() {
            @Override
            public String name() {
              return "steps";
            }

            @Override
            public DriveResult drive(DriveContext ctx) {
              int limit = calls.incrementAndGet() == 1 ? 80 : 10;
              Run run = ctx.run();
              phasesSeen.add(run.state().phase());
              for (int i = 0; i < limit; i++) {
                if (ctx.draining()) {
                  return DriveResult.yielded("stopped between steps");
                }
                long n = run.state().usage().proposals() + 1;
                run.apply(run.action("read-" + n, "read_file", read()));
                if (n == 2) {
                  deliver(fx, PauseDecision.Kind.PAUSE, "pause-1");
                }
                sleep(50);
              }
              return DriveResult.ended("all steps done");
            }
          };
      Worker w = fx.worker(steps, new WorkerOptions("w1", 1, Duration.ofMillis(50), TTL, true));

      assertThat(w.step()).isTrue();
      assertThat(fx.lines()).contains("worker w1 run r1: yielded (stopped between steps)");
      long stoppedAt = proposals(fx);
      assertThat(stoppedAt).as("stopped well before its 80 steps").isBetween(2L, 70L);

      assertThat(w.step()).as("the yielded row is claimed; recovery pauses the run").isTrue();
      assertThat(fx.lines()).contains("worker w1 run r1: waiting (paused by an operator)");
      assertThat(calls).as("a paused run is parked, not driven").hasValue(1);
      assertThat(phase(fx)).isEqualTo(Phase.PAUSED);
      assertThat(w.step()).as("parked: nothing claims it").isFalse();
      assertThat(w.step()).isFalse();

      deliver(fx, PauseDecision.Kind.UNPAUSE, "unpause-1");
      assertThat(w.step()).isTrue();
      assertThat(calls).hasValue(2);
      assertThat(phasesSeen).containsExactly(Phase.RUNNING, Phase.RUNNING);
      assertThat(fx.lines()).contains("worker w1 run r1: ended (all steps done)");
      assertThat(proposals(fx)).as("went on from where it stopped").isEqualTo(stoppedAt + 10);
    }
  }

  private static void deliver(WorkerFixture fx, PauseDecision.Kind kind, String nonce) {
    SignedDecision signed =
        SignedDecision.sign(
            new PauseDecision(
                kind,
                fx.f.operatorKey.label(),
                DecisionBinding.run(
                    fx.task.taskId(), "r1", fx.task.policyId(), fx.task.policyVersion()),
                "test",
                nonce),
            fx.f.operatorKey);
    fx.store.deliver(fx.task.taskId(), "r1", signed.inboxItem());
  }

  private static long proposals(WorkerFixture fx) {
    return fx.ratchet.verify(fx.task, "r1", fx.workspace).usage().proposals();
  }

  private static Phase phase(WorkerFixture fx) {
    return fx.ratchet.verify(fx.task, "r1", fx.workspace).phase();
  }

  private static JsonObject read() {
    return JsonObject.builder().put("path", "app.py").build();
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
