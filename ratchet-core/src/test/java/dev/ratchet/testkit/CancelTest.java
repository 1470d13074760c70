package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Phase;
import dev.ratchet.model.ReviewCase;
import dev.ratchet.model.ReviewDecision;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.outcome.Recovery;
import dev.ratchet.store.RecordSet;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 17: an operator's signed cancel is consumed once, under the lease, at the run's next
 * recovery. Nothing pending: the run ends cancelled. A write pending: the run freezes for review
 * (cancel_requested) and the write does not run, even with a valid approval delivered. Refused
 * cancels are traced once with their reason and change nothing else.
 */
class CancelTest {
  private final RuntimeFixture f = RuntimeFixture.inMemory(41);
  private final TaskSpec task = f.task("write_file");
  private final InMemoryWorkspace ws = f.workspace();

  @Test
  void aCancelWithNothingPendingEndsTheRunCancelledAndItsNonceIsConsumed() {
    f.ratchet("w1").start(task, "run-1", ws).close();
    f.deliverCancel(task, "run-1", f.operatorKey, "cancel-1");

    try (Run run = f.ratchet("w2").resume(task, "run-1", ws)) {
      assertThat(run.recovery().did()).isEqualTo(Recovery.Did.CANCELLED);
      assertThat(run.state().phase()).isEqualTo(Phase.CANCELLED);
      assertThat(run.state().stopReason()).isEqualTo("cancelled_by_operator");
      TraceEvent last = last(run.trace());
      assertThat(last.outcome().wireName()).isEqualTo("operator_cancelled");
      assertThat(last.detail().get("operator_id").orElseThrow().toString()).contains("olga");
    }
    assertThat(f.store.find(task.taskId(), "run-1", RecordSet.NONCES, "cancel-1")).isPresent();
    assertThat(f.store.inbox(task.taskId(), "run-1")).isEmpty();
    try (Run again = f.ratchet("w3").resume(task, "run-1", ws)) {
      assertThat(again.recovery().found()).isEqualTo(Recovery.Found.CANCELLED);
      assertThat(again.recovery().did()).isEqualTo(Recovery.Did.NOTHING);
    }
  }

  @Test
  void aCancelWithAWritePendingFreezesForReviewAndTheWriteNeverRuns() {
    Run first = f.ratchet("w1").start(task, "run-1", ws);
    String key =
        first
            .propose(first.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)))
            .action()
            .idempotencyKey();
    f.approvePending(first, task, Duration.ofHours(1)); // approved, yet the cancel comes first
    first.close();
    f.deliverCancel(task, "run-1", f.operatorKey, "cancel-1");

    Run run = f.ratchet("w2").resume(task, "run-1", ws);
    assertThat(run.recovery().did()).isEqualTo(Recovery.Did.FROZEN);
    assertThat(run.state().phase()).isEqualTo(Phase.NEEDS_REVIEW);
    assertThat(run.state().stopReason()).isEqualTo(ReviewCase.CANCEL_REQUESTED);
    assertThat(run.state().review().pending()).isEqualTo(run.state().pending());
    assertThat(ws.effects(key)).isZero();

    ReviewDecision abort = f.decision(run, task, ReviewDecision.ABORT, ws.observe().revision());
    f.deliverDecision(run.state(), abort, f.reviewerKey);
    run.resolveReview();
    assertThat(run.state().phase()).isEqualTo(Phase.FAILED);
    assertThat(run.state().stopReason()).isEqualTo("cancel_reviewed");
    assertThat(ws.effects(key)).isZero();
    run.close();
  }

  @Test
  void anUntrustedCancelIsRefusedTracedOnceAndTheRunGoesOn() {
    f.ratchet("w1").start(task, "run-1", ws).close();
    f.deliverCancel(task, "run-1", f.approverKey, "cancel-x"); // an approver is no operator

    int traced;
    try (Run run = f.ratchet("w2").resume(task, "run-1", ws)) {
      assertThat(run.state().phase()).isEqualTo(Phase.RUNNING);
      assertThat(run.recovery().did()).isEqualTo(Recovery.Did.NOTHING);
      TraceEvent last = last(run.trace());
      assertThat(last.outcome().wireName()).isEqualTo("cancel_rejected");
      JsonObject refusal =
          (JsonObject) ((JsonArray) last.detail().get("refusals").orElseThrow()).get(0);
      assertThat(refusal.get("reason").orElseThrow().toString()).contains("untrusted_signer");
      assertThat(refusal.get("nonce").orElseThrow().toString()).contains("cancel-x");
      traced = run.trace().size();
    }
    try (Run run = f.ratchet("w3").resume(task, "run-1", ws)) {
      assertThat(run.trace()).as("refused once, not at every recovery").hasSize(traced);
      assertThat(run.state().phase()).isEqualTo(Phase.RUNNING);
    }
  }

  @Test
  void aCancelBoundToAnotherRunIsRefusedAsWrongBinding() {
    f.ratchet("w1").start(task, "run-1", ws).close();
    f.ratchet("w1").start(task, "run-2", f.workspace()).close();
    // Signed for run-2, delivered to run-1's inbox.
    var env =
        dev.ratchet.model.SignedEnvelope.sign(
            new dev.ratchet.model.CancelRequest(
                    "olga",
                    dev.ratchet.model.DecisionBinding.run(
                        task.taskId(), "run-2", task.policyId(), task.policyVersion()),
                    "x",
                    "n1")
                .toJson(),
            f.operatorKey);
    f.deliverUnchecked(task.taskId(), "run-1", "n1", dev.ratchet.store.InboxItem.Kind.CANCEL, env);
    try (Run run = f.ratchet("w2").resume(task, "run-1", ws)) {
      assertThat(run.state().phase()).isEqualTo(Phase.RUNNING);
      assertThat(last(run.trace()).detail().toString()).contains("wrong_binding");
    }
  }

  private static TraceEvent last(List<TraceEvent> trace) {
    return trace.get(trace.size() - 1);
  }
}
