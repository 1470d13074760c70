package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.PauseDecision;
import dev.ratchet.model.Phase;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.outcome.Recovery;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.RecordSet;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * D37: an operator's signed pause stops a run at a step boundary with nothing pending; a paused run
 * proposes nothing and stays paused at every recovery until a signed unpause; refused pauses and
 * unpauses (unsigned, untrusted key, bound to another run) are traced once and change nothing.
 */
class PauseTest {
  private final RuntimeFixture f = RuntimeFixture.inMemory(57);
  private final TaskSpec task = f.task("write_file");
  private final InMemoryWorkspace ws = f.workspace();

  @Test
  void aPausedRunProposesNothingAndStaysPausedUntilASignedUnpause() {
    f.ratchet("w1").start(task, "run-1", ws).close();
    f.deliverPause(PauseDecision.Kind.PAUSE, task, "run-1", f.operatorKey, "pause-1");

    try (Run run = f.ratchet("w2").resume(task, "run-1", ws)) {
      assertThat(run.recovery().did()).isEqualTo(Recovery.Did.PAUSED);
      assertThat(run.state().phase()).isEqualTo(Phase.PAUSED);
      assertThat(run.state().stopReason()).isEqualTo("paused_by_operator");
      TraceEvent last = last(run.trace());
      assertThat(last.outcome().wireName()).isEqualTo("operator_paused");
      assertThat(last.detail().get("operator_id").orElseThrow().toString()).contains("olga");
      assertThat(last.detail().get("pause_reason").orElseThrow().toString())
          .contains("maintenance window");
      assertThatThrownBy(() -> run.propose(run.action("a1", "write_file", write("app.py", "x\n"))))
          .isInstanceOf(RatchetException.class)
          .hasMessageContaining("paused");
    }
    assertThat(f.store.find(task.taskId(), "run-1", RecordSet.NONCES, "pause-1")).isPresent();
    try (Run again = f.ratchet("w3").resume(task, "run-1", ws)) {
      assertThat(again.recovery().found()).isEqualTo(Recovery.Found.PAUSED);
      assertThat(again.state().phase()).isEqualTo(Phase.PAUSED);
    }

    f.deliverPause(PauseDecision.Kind.UNPAUSE, task, "run-1", f.operatorKey, "unpause-1");
    try (Run run = f.ratchet("w4").resume(task, "run-1", ws)) {
      assertThat(run.state().phase()).isEqualTo(Phase.RUNNING);
      assertThat(run.state().stopReason()).isNull();
      assertThat(last(run.trace()).outcome().wireName()).isEqualTo("operator_unpaused");
      run.apply(run.action("a1", "read_file", Scenarios.read("app.py")));
      assertThat(run.state().cursor()).as("the unpaused run steps again").isEqualTo(1);
    }
  }

  @Test
  void aReplayedPauseIsRefusedAtDeliveryAndTheRunGoesOn() {
    f.ratchet("w1").start(task, "run-1", ws).close();
    SignedEnvelope kept =
        f.deliverPause(PauseDecision.Kind.PAUSE, task, "run-1", f.operatorKey, "pause-1");
    f.ratchet("w2").resume(task, "run-1", ws).close();
    f.deliverPause(PauseDecision.Kind.UNPAUSE, task, "run-1", f.operatorKey, "unpause-1");
    f.ratchet("w3").resume(task, "run-1", ws).close();
    // The same signed pause again, as someone who kept a copy would deliver it.
    assertThatThrownBy(
            () -> f.deliverUnchecked(task.taskId(), "run-1", "pause-1", InboxItem.Kind.PAUSE, kept))
        .isInstanceOf(RatchetException.class)
        .hasMessageContaining("pause-1");
    try (Run run = f.ratchet("w4").resume(task, "run-1", ws)) {
      assertThat(run.state().phase()).isEqualTo(Phase.RUNNING);
    }
  }

  @Test
  void aPauseWaitsForAWriteInFlightAndIsTakenAtTheNextBoundary() {
    Run first = f.ratchet("w1").start(task, "run-1", ws);
    String key =
        first
            .propose(first.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)))
            .action()
            .idempotencyKey();
    f.approvePending(first, task, Duration.ofHours(1));
    first.close();
    f.deliverPause(PauseDecision.Kind.PAUSE, task, "run-1", f.operatorKey, "pause-1");

    try (Run run = f.ratchet("w2").resume(task, "run-1", ws)) {
      assertThat(run.recovery().did()).isEqualTo(Recovery.Did.EXECUTED_ONCE);
      assertThat(ws.effects(key)).as("the approved write ran first, once").isEqualTo(1);
      assertThat(run.state().phase()).isEqualTo(Phase.PAUSED);
      assertThat(run.state().pending()).isNull();
      assertThat(run.stopRequested()).isFalse();
    }
    try (Run run = f.ratchet("w3").resume(task, "run-1", ws)) {
      assertThat(run.state().phase()).isEqualTo(Phase.PAUSED);
    }
    assertThat(ws.effects(key)).isEqualTo(1);
  }

  @Test
  void aPauseLeavesAWriteAwaitingApprovalPendingUntilItRuns() {
    Run first = f.ratchet("w1").start(task, "run-1", ws);
    first.propose(first.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    first.close();
    f.deliverPause(PauseDecision.Kind.PAUSE, task, "run-1", f.operatorKey, "pause-1");
    try (Run run = f.ratchet("w2").resume(task, "run-1", ws)) {
      assertThat(run.recovery().did()).isEqualTo(Recovery.Did.AWAITING_APPROVAL);
      assertThat(run.state().phase()).isEqualTo(Phase.RUNNING);
      assertThat(run.stopRequested()).as("the pause still waits").isTrue();
    }
  }

  @Test
  void anUntrustedPauseAndAnUnsignedUnpauseAreRefusedOnceAndChangeNothing() {
    f.ratchet("w1").start(task, "run-1", ws).close();
    f.deliverPause(PauseDecision.Kind.PAUSE, task, "run-1", f.approverKey, "pause-x");
    int traced;
    try (Run run = f.ratchet("w2").resume(task, "run-1", ws)) {
      assertThat(run.state().phase()).isEqualTo(Phase.RUNNING);
      TraceEvent last = last(run.trace());
      assertThat(last.outcome().wireName()).isEqualTo("pause_rejected");
      assertThat(last.detail().toString()).contains("untrusted_signer").contains("pause-x");
      traced = run.trace().size();
    }
    try (Run run = f.ratchet("w3").resume(task, "run-1", ws)) {
      assertThat(run.trace()).as("refused once, not at every recovery").hasSize(traced);
    }

    f.deliverPause(PauseDecision.Kind.PAUSE, task, "run-1", f.operatorKey, "pause-1");
    f.ratchet("w4").resume(task, "run-1", ws).close();
    // An unpause whose signature is stripped: the envelope carries another key's signature.
    SignedEnvelope signed =
        SignedEnvelope.sign(unpause("run-1", "unpause-x").toJson(), f.operatorKey);
    SignedEnvelope forged =
        SignedEnvelope.sign(unpause("run-1", "unpause-y").toJson(), f.operatorKey);
    SignedEnvelope spliced =
        new SignedEnvelope(signed.payload(), signed.keyId(), forged.signatureEd25519());
    f.deliverUnchecked(task.taskId(), "run-1", "unpause-x", InboxItem.Kind.UNPAUSE, spliced);
    try (Run run = f.ratchet("w5").resume(task, "run-1", ws)) {
      assertThat(run.state().phase()).isEqualTo(Phase.PAUSED);
      assertThat(last(run.trace()).detail().toString()).contains("bad_signature");
    }
  }

  @Test
  void aPauseBoundToAnotherRunIsRefusedAsWrongBinding() {
    f.ratchet("w1").start(task, "run-1", ws).close();
    f.ratchet("w1").start(task, "run-2", f.workspace()).close();
    SignedEnvelope env = SignedEnvelope.sign(pause("run-2", "n1").toJson(), f.operatorKey);
    f.deliverUnchecked(task.taskId(), "run-1", "n1", InboxItem.Kind.PAUSE, env);
    try (Run run = f.ratchet("w2").resume(task, "run-1", ws)) {
      assertThat(run.state().phase()).isEqualTo(Phase.RUNNING);
      assertThat(last(run.trace()).outcome().wireName()).isEqualTo("pause_rejected");
      assertThat(last(run.trace()).detail().toString()).contains("wrong_binding");
    }
    // A pause delivered under the unpause kind is refused too: the decision is signed in.
    SignedEnvelope p2 = SignedEnvelope.sign(pause("run-1", "n2").toJson(), f.operatorKey);
    f.deliverUnchecked(task.taskId(), "run-1", "n2", InboxItem.Kind.UNPAUSE, p2);
    try (Run run = f.ratchet("w3").resume(task, "run-1", ws)) {
      assertThat(run.state().phase()).isEqualTo(Phase.RUNNING);
      assertThat(last(run.trace()).detail().toString()).contains("wrong_binding");
    }
  }

  @Test
  void theDecisionFieldIsRequired() {
    var binding = dev.ratchet.model.DecisionBinding.run("t", "r", "p", "1");
    assertThatThrownBy(() -> new PauseDecision(null, "olga", binding, "why", "n"))
        .isInstanceOf(RatchetException.class)
        .matches(e -> ((RatchetException) e).code() == ErrorCode.CONTRACT)
        .hasMessageContaining("pause.decision");
    // A parsed payload comes back as the pause it is, not as a cancel (both name operator_id).
    PauseDecision d = new PauseDecision(PauseDecision.Kind.UNPAUSE, "olga", binding, "why", "n");
    assertThat(dev.ratchet.model.Decision.fromJson(d.toJson(), "p")).isEqualTo(d);
  }

  private PauseDecision pause(String runId, String nonce) {
    return decision(PauseDecision.Kind.PAUSE, runId, nonce);
  }

  private PauseDecision unpause(String runId, String nonce) {
    return decision(PauseDecision.Kind.UNPAUSE, runId, nonce);
  }

  private PauseDecision decision(PauseDecision.Kind kind, String runId, String nonce) {
    return new PauseDecision(
        kind,
        f.operatorKey.label(),
        dev.ratchet.model.DecisionBinding.run(
            task.taskId(), runId, task.policyId(), task.policyVersion()),
        "x",
        nonce);
  }

  private static TraceEvent last(List<TraceEvent> trace) {
    return trace.get(trace.size() - 1);
  }
}
