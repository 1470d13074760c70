package dev.ratchet.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.model.DecisionBinding;
import dev.ratchet.model.PauseDecision;
import dev.ratchet.model.Phase;
import dev.ratchet.model.RunState;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.sign.SigningKey;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 42 (Must show): a pause and an unpause are each refused with a clear reason when unsigned
 * (another signature in place of the operator's), signed by an untrusted key, or bound to another
 * run; nothing changes — the phase, cursor, stop reason and pending write stay, and only the item's
 * nonce and one {@code pause_rejected} event are committed, once.
 */
class PauseRefusalsTest {
  private final RuntimeFixture f = RuntimeFixture.inMemory(58);
  private final TaskSpec task = f.task("write_file");
  private final InMemoryWorkspace ws = f.workspace();

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "PAUSE, unsigned, bad_signature",
    "PAUSE, untrusted, untrusted_signer",
    "PAUSE, other_run, wrong_binding",
    "UNPAUSE, unsigned, bad_signature",
    "UNPAUSE, untrusted, untrusted_signer",
    "UNPAUSE, other_run, wrong_binding"
  })
  void aRefusedDecisionChangesNothing(PauseDecision.Kind kind, String how, String reason) {
    f.ratchet("w1").start(task, "run-1", ws).close();
    f.ratchet("w1").start(task, "run-2", f.workspace()).close();
    Phase from = kind == PauseDecision.Kind.PAUSE ? Phase.RUNNING : Phase.PAUSED;
    if (from == Phase.PAUSED) {
      f.deliverPause(PauseDecision.Kind.PAUSE, task, "run-1", f.operatorKey, "pause-0");
      f.ratchet("w2").resume(task, "run-1", ws).close();
    }
    RunState before;
    int traced;
    try (Run run = f.ratchet("w3").resume(task, "run-1", ws)) {
      before = run.state();
      traced = run.trace().size();
    }
    assertThat(before.phase()).isEqualTo(from);

    SigningKey signer = how.equals("untrusted") ? f.approverKey : f.operatorKey;
    String boundTo = how.equals("other_run") ? "run-2" : "run-1";
    SignedEnvelope env = SignedEnvelope.sign(decision(kind, boundTo, "x-1").toJson(), signer);
    if (how.equals("unsigned")) {
      SignedEnvelope other =
          SignedEnvelope.sign(decision(kind, boundTo, "x-2").toJson(), f.operatorKey);
      env = new SignedEnvelope(env.payload(), env.keyId(), other.signatureEd25519());
    }
    f.deliverUnchecked(
        task.taskId(), "run-1", "x-1", decision(kind, "run-1", "x").inboxKind(), env);

    try (Run run = f.ratchet("w4").resume(task, "run-1", ws)) {
      RunState after = run.state();
      assertThat(after.phase()).as("phase").isEqualTo(before.phase());
      assertThat(after.cursor()).isEqualTo(before.cursor());
      assertThat(after.stopReason()).isEqualTo(before.stopReason());
      assertThat(after.pending()).isEqualTo(before.pending());
      List<TraceEvent> trace = run.trace();
      assertThat(trace).as("one refusal event, nothing else").hasSize(traced + 1);
      TraceEvent last = trace.get(trace.size() - 1);
      assertThat(last.outcome().wireName()).isEqualTo("pause_rejected");
      assertThat(last.detail().toString()).contains(reason).contains("x-1");
    }
    try (Run run = f.ratchet("w5").resume(task, "run-1", ws)) {
      assertThat(run.trace()).as("refused once").hasSize(traced + 1);
      assertThat(run.state().phase()).isEqualTo(from);
    }
  }

  private PauseDecision decision(PauseDecision.Kind kind, String runId, String nonce) {
    return new PauseDecision(
        kind,
        f.operatorKey.label(),
        DecisionBinding.run(task.taskId(), runId, task.policyId(), task.policyVersion()),
        "x",
        nonce);
  }
}
