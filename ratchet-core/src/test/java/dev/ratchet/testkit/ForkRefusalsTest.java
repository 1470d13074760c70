package dev.ratchet.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.error.DecisionRefused;
import dev.ratchet.model.ForkDecision;
import dev.ratchet.model.SignedDecision;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.StoredRun;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 42 (Must show): a fork is refused with a clear reason when unsigned (another signature in
 * place of the operator's), signed by an untrusted key (an approver's), or bound to another run;
 * nothing changes — no new run, the source's mark and sets exactly as before.
 */
class ForkRefusalsTest {
  private final ForkFixture x = new ForkFixture(72);

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "unsigned, BAD_SIGNATURE, signature",
    "untrusted, UNTRUSTED_SIGNER, trust",
    "other_run, WRONG_BINDING, fork.run_id is not bound to this run"
  })
  void aRefusedForkChangesNothing(String how, DecisionRefused.Reason reason, String says) {
    x.failedSource("src");
    x.failedSource("other");
    List<CheckpointStore.RunRef> runsBefore = x.f.store.runs();
    StoredRun before = x.stored("src");

    String boundTo = how.equals("other_run") ? "other" : "src";
    ForkDecision d = x.decision(boundTo, x.generationAt(boundTo, 0), "fork-x", "fork-x1");
    SignedDecision signed =
        x.signed(d, how.equals("untrusted") ? x.f.approverKey : x.f.operatorKey);
    if (how.equals("unsigned")) {
      ForkDecision twin = x.decision(boundTo, x.generationAt(boundTo, 0), "fork-x", "fork-x2");
      SignedEnvelope other = SignedEnvelope.sign(twin.toJson(), x.f.operatorKey);
      signed = SignedDecision.of(d, signed.envelope().keyId(), other.signatureEd25519());
    }
    SignedDecision refused = signed;
    assertThatThrownBy(() -> x.fork(x.f.ratchet("w-f"), "src", refused))
        .isInstanceOf(DecisionRefused.class)
        .satisfies(e -> assertThat(((DecisionRefused) e).reason()).isEqualTo(reason))
        .hasMessageContaining(says);

    assertThat(x.f.store.load(x.task.taskId(), "fork-x")).as("no new run").isEmpty();
    assertThat(x.f.store.runs()).isEqualTo(runsBefore);
    StoredRun after = x.stored("src");
    assertThat(after.generation()).isEqualTo(before.generation());
    assertThat(after.contentDigest()).isEqualTo(before.contentDigest());
    assertThat(after.heads()).isEqualTo(before.heads());
  }
}
