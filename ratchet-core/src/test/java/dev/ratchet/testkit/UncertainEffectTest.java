package dev.ratchet.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.Run;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Phase;
import dev.ratchet.model.ReviewCase;
import dev.ratchet.model.ReviewDecision;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.Recovery;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.store.RecordSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SPEC D23 (ADR 0071): an unreceipted write commits its intent and an {@code effect_started} mark
 * before it runs and its result at once after; a crash in between freezes the run {@code
 * uncertain_effect} with the evidence kept, and the effect is never run again automatically.
 */
class UncertainEffectTest {
  private static final JsonObject APPEND =
      JsonObject.builder().put("path", "log.txt").put("content", "deployed\n").build();

  private final RuntimeFixture f = RuntimeFixture.inMemory(2300);
  private final TaskSpec task = f.task();
  private final InMemoryWorkspace ws = f.workspace();
  private final UnreceiptedAppend adapter = new UnreceiptedAppend(ws);

  @Test
  void withoutACrashTheStartedMarkAndTheResultCommitAroundOneEffect() {
    Run run = f.ratchet("w1").start(task, "run-1", adapter);
    StepOutcome o = run.apply(run.action("a1", "append_file", APPEND));
    assertThat(o.kind()).isEqualTo(StepOutcome.Kind.EXECUTED);
    assertThat(run.state().pending()).isNull();
    assertThat(ws.effects(o.receipt().idempotencyKey())).isEqualTo(1);
    assertThat(traceOutcomes())
        .containsSubsequence("accepted_pending", "effect_started", "executed");
  }

  @Test
  void aCrashAtEachWindowFreezesUncertainAndNeverRunsTheEffectAgain() {
    for (CrashPoint point :
        List.of(
            CrashPoint.AFTER_EFFECT_STARTED_COMMIT,
            CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT,
            CrashPoint.UNRECEIPTED_RESULT_HELD)) {
      RuntimeFixture g = RuntimeFixture.inMemory(2400 + point.ordinal());
      TaskSpec t = g.task();
      InMemoryWorkspace w = g.workspace();
      UnreceiptedAppend a = new UnreceiptedAppend(w);
      CrashPlan plan = new CrashPlan();
      w.crashSeam(plan);
      Run run = g.ratchet("w1", plan).start(t, "run-1", a);
      String key = run.propose(run.action("a1", "append_file", APPEND)).action().idempotencyKey();
      plan.arm(point);
      assertThat(catchThrowable(() -> run.execute("a1"))).isInstanceOf(SimulatedCrash.class);
      plan.disarm();
      int before = w.effects(key);
      assertThat(before)
          .as(point.name())
          .isEqualTo(point == CrashPoint.AFTER_EFFECT_STARTED_COMMIT ? 0 : 1);
      g.clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
      Run recovered = g.ratchet("w2").resume(t, "run-1", a);
      assertThat(recovered.recovery().found()).isEqualTo(Recovery.Found.EFFECT_STARTED);
      assertThat(recovered.recovery().did()).isEqualTo(Recovery.Did.FROZEN);
      assertThat(recovered.state().phase()).isEqualTo(Phase.NEEDS_REVIEW);
      assertThat(recovered.state().stopReason()).isEqualTo(ReviewCase.UNCERTAIN_EFFECT);
      ReviewCase c = recovered.state().review();
      assertThat(c.pending().key()).isEqualTo(key);
      assertThat(c.pending().effectStarted()).isTrue();
      assertThat(w.effects(key)).as(point.name()).isEqualTo(before);
      // Resuming again changes nothing: still frozen, still never re-run.
      recovered.close();
      Run again = g.ratchet("w3").resume(t, "run-1", a);
      assertThat(again.state().phase()).isEqualTo(Phase.NEEDS_REVIEW);
      assertThat(w.effects(key)).isEqualTo(before);
    }
  }

  @Test
  void anEffectThatThrowsFreezesAtOnce() {
    Run run = f.ratchet("w1").start(task, "run-1", new Throwing(adapter));
    StepOutcome o = run.apply(run.action("a1", "append_file", APPEND));
    assertThat(o.kind()).isEqualTo(StepOutcome.Kind.FROZEN);
    assertThat(run.state().stopReason()).isEqualTo(ReviewCase.UNCERTAIN_EFFECT);
  }

  @Test
  void aSignedReplanQuarantinesTheKeyAndAbortEndsTheRun() {
    Run run = crashedThenRecovered("run-1");
    String key = run.state().pending().key();
    f.deliverDecision(
        run.state(),
        f.decision(run, task, ReviewDecision.REPLAN, ws.observe().revision()),
        f.reviewerKey);
    run.resolveReview();
    assertThat(run.state().phase()).isEqualTo(Phase.RUNNING);
    assertThat(f.store.find(task.taskId(), "run-1", RecordSet.QUARANTINED_KEYS, key)).isPresent();
    assertThat(ws.effects(key)).isZero();

    Run other = crashedThenRecovered("run-2");
    f.deliverDecision(
        other.state(),
        f.decision(other, task, ReviewDecision.ABORT, ws.observe().revision()),
        f.reviewerKey);
    other.resolveReview();
    assertThat(other.state().phase()).isEqualTo(Phase.FAILED);
    assertThat(other.state().stopReason()).isEqualTo("uncertain_effect_reviewed");
  }

  @Test
  void theLeaseIsNotReleasedWhileTheEffectIsInFlight() throws Exception {
    java.util.concurrent.CountDownLatch inside = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch finish = new java.util.concurrent.CountDownLatch(1);
    Run run = f.ratchet("w1").start(task, "run-1", new Blocking(adapter, inside, finish));
    run.propose(run.action("a1", "append_file", APPEND));
    Thread worker = new Thread(() -> run.execute("a1"));
    worker.start();
    inside.await();
    Thread closer = new Thread(run::close);
    closer.start();
    closer.join(300);
    assertThat(closer.isAlive()).as("close waits for the effect in flight").isTrue();
    assertThat(f.leases.current("run-1")).isPresent();
    finish.countDown();
    worker.join(5_000);
    closer.join(5_000);
    assertThat(closer.isAlive()).isFalse();
    assertThat(run.state().pending()).isNull();
  }

  private Run crashedThenRecovered(String runId) {
    CrashPlan plan = new CrashPlan();
    Run run = f.ratchet("w1", plan).start(task, runId, adapter);
    run.propose(run.action("a1", "append_file", APPEND));
    plan.arm(CrashPoint.AFTER_EFFECT_STARTED_COMMIT);
    catchThrowable(() -> run.execute("a1"));
    f.clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
    return f.ratchet("w2").resume(task, runId, adapter);
  }

  private List<String> traceOutcomes() {
    return f.store.records(task.taskId(), "run-1", RecordSet.TRACE, 1, 10_000).stream()
        .map(r -> dev.ratchet.model.TraceEvent.fromJson(dev.ratchet.store.RecordMac.strip(r), "t"))
        .map(e -> e.outcome().wireName())
        .toList();
  }

  /** Holds the unreceipted effect open until the test lets it return. */
  private static final class Blocking extends dev.ratchet.adapter.ForwardingAdapter {
    private final java.util.concurrent.CountDownLatch inside;
    private final java.util.concurrent.CountDownLatch finish;

    Blocking(
        dev.ratchet.adapter.EnvironmentAdapter d,
        java.util.concurrent.CountDownLatch inside,
        java.util.concurrent.CountDownLatch finish) {
      super(d);
      this.inside = inside;
      this.finish = finish;
    }

    @Override
    public dev.ratchet.adapter.AdapterOutcome execute(
        dev.ratchet.adapter.WriteIntent intent,
        String key,
        dev.ratchet.store.Fence fence,
        dev.ratchet.adapter.ApprovalBinding approval) {
      inside.countDown();
      try {
        finish.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return super.execute(intent, key, fence, approval);
    }
  }

  /** Throws from inside the unreceipted effect. */
  private static final class Throwing extends dev.ratchet.adapter.ForwardingAdapter {
    Throwing(dev.ratchet.adapter.EnvironmentAdapter d) {
      super(d);
    }

    @Override
    public dev.ratchet.adapter.AdapterOutcome execute(
        dev.ratchet.adapter.WriteIntent intent,
        String key,
        dev.ratchet.store.Fence fence,
        dev.ratchet.adapter.ApprovalBinding approval) {
      throw new IllegalStateException("the deploy tool crashed");
    }
  }
}
