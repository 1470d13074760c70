package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.read;
import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.Run;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Phase;
import dev.ratchet.model.ReviewCase;
import dev.ratchet.model.ReviewDecision;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.store.Fence;
import dev.ratchet.store.RecordSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** SPEC §8: a receipt conflict freezes the run; only a trusted, exactly bound decision moves it. */
class ReviewTest {
  private final RuntimeFixture f = RuntimeFixture.inMemory(21);
  private final TaskSpec task = f.task();
  private final InMemoryWorkspace ws = f.workspace();
  private Run run;
  private String key;

  @BeforeEach
  void freezeOnAConflict() {
    run = f.ratchet("w1").start(task, "run-1", ws);
    Proposal p = run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    key = p.action().idempotencyKey();
    // Another client reuses the run's key for a different intent at the adapter.
    WriteIntent other =
        new WriteIntent(
            ws.namespace(), "write_file", write("app.py", "evil\n"), "reversible_write");
    ws.execute(other, key, new Fence("run-1", "intruder", 1), ApprovalBinding.NONE);
    StepOutcome o = run.execute("a1");
    assertThat(o.kind()).isEqualTo(StepOutcome.Kind.FROZEN);
  }

  @Test
  @Rules({"R4.6-conflict-freeze", "R1.12-review-case", "R2.1-review-freeze"})
  void aConflictFreezesTheRunWithAllEvidenceKept() {
    ReviewCase c = run.state().review();
    assertThat(run.state().phase()).isEqualTo(Phase.NEEDS_REVIEW);
    assertThat(run.state().stopReason()).isEqualTo(ReviewCase.RECEIPT_CONFLICT);
    assertThat(run.state().pending()).isNotNull().isEqualTo(c.pending());
    assertThat(c.observedReceipt()).isEqualTo(ws.lookup(key).orElseThrow());
    assertThat(c.observedReceiptFingerprint()).isEqualTo(c.observedReceipt().fingerprint());
    assertThatThrownBy(() -> run.propose(run.action("a2", "read_file", read("app.py"))))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.REVIEW_REQUIRED));
    assertThatThrownBy(() -> run.execute("a1"))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.REVIEW_REQUIRED));
    assertThatThrownBy(() -> run.reconcile())
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.REVIEW_REQUIRED));
    // The freeze survives recovery with the evidence intact.
    long gen = run.generation();
    f.clock.advance(RuntimeFixture.LEASE_TTL.multipliedBy(2));
    Run again = f.ratchet("w2").resume(task, "run-1", ws);
    assertThat(again.generation()).isEqualTo(gen);
    assertThat(again.state().review()).isEqualTo(c);
  }

  private void assertStaysFrozen(ReviewDecision d, SigningKey key) {
    long gen = run.generation();
    ReviewCase open = run.state().review();
    f.deliverDecision(run.state(), d, key);
    assertThatThrownBy(() -> run.resolveReview())
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.APPROVAL));
    // The only commit is the trace of the refusal (issue 14): same case, same phase.
    assertThat(run.generation()).isEqualTo(gen + 1);
    assertThat(run.state().review()).isEqualTo(open);
    assertThat(run.state().phase()).isEqualTo(Phase.NEEDS_REVIEW);
    String last =
        f.store.records(task.taskId(), "run-1", RecordSet.TRACE, 1, 10_000).stream()
            .reduce((a, b) -> b)
            .orElseThrow()
            .body();
    assertThat(last).contains("review_decision_rejected").contains(d.nonce());
  }

  @Test
  @Rules({"R2.3.8-resolve-refused", "R1.11-decision"})
  void untrustedTamperedMisboundOrStaleDecisionsLeaveItFrozen() {
    long rev = ws.observe().revision();
    ReviewDecision good = f.decision(run, task, ReviewDecision.REPLAN, rev);
    // An approver key is not a reviewer key: the trust roots do not fall back.
    ReviewDecision byApprover =
        new ReviewDecision(
            "alice",
            new dev.ratchet.model.DecisionBinding(
                good.taskId(),
                good.runId(),
                good.policyId(),
                good.policyVersion(),
                good.actionId(),
                good.idempotencyKey(),
                good.pendingIntentDigest()),
            good.caseId(),
            good.observedIntentDigest(),
            good.observedReceiptFingerprint(),
            good.environmentInstanceId(),
            good.environmentRevision(),
            good.decision(),
            "n-approver");
    assertStaysFrozen(byApprover, f.approverKey);
    // Signed by the right id with the wrong key.
    assertStaysFrozen(f.decision(run, task, ReviewDecision.REPLAN, rev), f.approverKey);
    // Bound to another receipt fingerprint.
    ReviewDecision wrongReceipt =
        new ReviewDecision(
            "rita",
            new dev.ratchet.model.DecisionBinding(
                good.taskId(),
                good.runId(),
                good.policyId(),
                good.policyVersion(),
                good.actionId(),
                good.idempotencyKey(),
                good.pendingIntentDigest()),
            good.caseId(),
            good.observedIntentDigest(),
            "f".repeat(64),
            good.environmentInstanceId(),
            good.environmentRevision(),
            good.decision(),
            "n-fp");
    assertStaysFrozen(wrongReceipt, f.reviewerKey);
    // Signed for an older environment revision.
    assertStaysFrozen(f.decision(run, task, ReviewDecision.REPLAN, rev - 1), f.reviewerKey);
  }

  @Test
  @Rules("R2.3.8-resolve-refused")
  void anEnvironmentChangeAfterSigningLeavesItFrozen() {
    ReviewDecision d = f.decision(run, task, ReviewDecision.REPLAN, ws.observe().revision());
    ws.externalWrite("log.txt", "someone else\n");
    assertStaysFrozen(d, f.reviewerKey);
  }

  @Test
  @Rules("R2.3.8-resolve-refused")
  void receiptDriftAfterTheFreezeLeavesItFrozen() {
    var r = ws.lookup(key).orElseThrow();
    ws.replaceReceipt(
        key,
        new dev.ratchet.adapter.Receipt(
            r.namespace(),
            r.adapterVersion(),
            r.receiptId(),
            r.idempotencyKey(),
            r.intentDigest(),
            JsonObject.builder().put("x", 1).build(),
            r.revisionBefore(),
            r.revisionAfter(),
            r.fingerprintBefore(),
            r.fingerprintAfter(),
            r.committedAtMs(),
            r.fenceRunId(),
            r.fenceLeaseVersion(),
            r.approvalFingerprint(),
            r.businessId()));
    assertStaysFrozen(
        f.decision(run, task, ReviewDecision.REPLAN, ws.observe().revision()), f.reviewerKey);
  }

  @Test
  @Rules({"R2.3.8-replan", "R2.3.2-replay-refused"})
  void aTrustedReplanQuarantinesTheKeyAndTheRunCompletesWithANewKey() {
    ReviewDecision d = f.decision(run, task, ReviewDecision.REPLAN, ws.observe().revision());
    f.deliverDecision(run.state(), d, f.reviewerKey);
    run.resolveReview();
    assertThat(run.state().phase()).isEqualTo(Phase.RUNNING);
    assertThat(run.state().pending()).isNull();
    assertThat(f.store.find(task.taskId(), "run-1", RecordSet.QUARANTINED_KEYS, key)).isPresent();
    // The same decision cannot be used twice.
    assertThatThrownBy(() -> run.resolveReview()).isInstanceOf(RatchetException.class);
    // The quarantined key can never be used again.
    assertThatThrownBy(
            () ->
                run.propose(
                    run.action("a2", "write_file", write("app.py", RuntimeFixture.FIXED))
                        .withIdempotencyKey(key)))
        .isInstanceOfSatisfying(
            RatchetException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.IDEMPOTENCY_CONFLICT));
    StepOutcome w =
        run.apply(run.action("a3", "write_file", write("app.py", RuntimeFixture.FIXED)));
    assertThat(w.receipt().idempotencyKey()).isNotEqualTo(key);
    run.apply(run.action("a4", "run_tests", Scenarios.tests()));
    run.apply(run.action("a5", "finish", JsonObject.EMPTY));
    assertThat(run.state().phase()).isEqualTo(Phase.COMPLETED);
    assertThat(ws.effects(w.receipt().idempotencyKey())).isEqualTo(1);
  }

  @Test
  @Rules("R2.3.8-abort")
  void aTrustedAbortFailsTheRunWithEvidenceKept() {
    ReviewCase c = run.state().review();
    ReviewDecision d = f.decision(run, task, ReviewDecision.ABORT, ws.observe().revision());
    f.deliverDecision(run.state(), d, f.reviewerKey);
    run.resolveReview();
    assertThat(run.state().phase()).isEqualTo(Phase.FAILED);
    assertThat(run.state().stopReason()).isEqualTo("receipt_conflict_reviewed");
    long last = run.state().head(RecordSet.TRACE).count();
    String sealed =
        f.store
            .find(task.taskId(), "run-1", RecordSet.TRACE, Long.toString(last))
            .orElseThrow()
            .body();
    assertThat(sealed).contains("review_aborted").contains(c.observedReceiptFingerprint());
  }
}
