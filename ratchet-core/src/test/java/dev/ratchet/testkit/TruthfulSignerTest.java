package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.Run;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.Approval;
import dev.ratchet.model.ApprovalRejection;
import dev.ratchet.model.CancelRequest;
import dev.ratchet.model.Phase;
import dev.ratchet.model.ReviewDecision;
import dev.ratchet.model.RunState;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.store.Fence;
import dev.ratchet.store.InboxItem;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * D30: a decision names its signer truthfully. The name a worker traces is the trust root's name
 * for the verifying key; a payload whose own approver_id, reviewer_id or operator_id says another
 * name is refused as {@code wrong_signer}, even though its signature verifies, and changes nothing.
 */
class TruthfulSignerTest {
  private final RuntimeFixture f = RuntimeFixture.inMemory(57);
  private final TaskSpec task = f.task("write_file");
  private final InMemoryWorkspace ws = f.workspace();

  /**
   * {@code payload} with its signer field set to {@code name}, signed by {@code key}, delivered.
   */
  private void deliverClaiming(
      RunState s,
      InboxItem.Kind kind,
      JsonObject payload,
      String field,
      String name,
      String nonce,
      SigningKey key) {
    SignedEnvelope env = SignedEnvelope.sign(payload.with(field, new JsonString(name)), key);
    f.deliverUnchecked(s.taskId(), s.runId(), nonce, kind, env);
  }

  @Test
  void anApprovalSignedByAliceThatNamesBobIsRefusedAsWrongSignerAndTheWriteDoesNotRun() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      String key =
          run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)))
              .action()
              .idempotencyKey();
      RunState s = run.state();
      Approval a = Approval.ofPending("alice", s, task, 100, f.clock.millis() + 60_000, "n-bob");
      deliverClaiming(
          s, InboxItem.Kind.APPROVAL, a.toJson(), "approver_id", "bob", "n-bob", f.approverKey);

      String why = RuntimeFixture.awaitingWhy(run.execute("a1"));
      assertThat(why)
          .contains("n-bob")
          .contains("wrong_signer")
          .contains("trusted as 'alice'")
          .contains("names its signer 'bob'");
      assertThat(ws.effects(key)).isZero();

      // The same key under its own name is accepted, and the trace names the trusted signer.
      f.approvePending(run, task, Duration.ofHours(1));
      assertThat(run.execute("a1").kind()).isEqualTo(StepOutcome.Kind.EXECUTED);
      assertThat(ws.effects(key)).isEqualTo(1);
      assertThat(run.trace().stream().map(e -> e.detail().toString()))
          .noneMatch(d -> d.contains("\"approver_id\":\"bob\""));
    }
  }

  @Test
  void aRejectionThatNamesAnotherApproverIsRefusedAndTheWriteStillWaits() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
      RunState s = run.state();
      ApprovalRejection r = ApprovalRejection.ofPending("alice", s, task, "no", "r-bob");
      deliverClaiming(
          s, InboxItem.Kind.APPROVAL, r.toJson(), "approver_id", "bob", "r-bob", f.approverKey);
      assertThat(RuntimeFixture.awaitingWhy(run.execute("a1")))
          .contains("r-bob")
          .contains("wrong_signer");
      assertThat(run.state().pending()).as("not dropped").isNotNull();
    }
  }

  @Test
  void aCancelThatNamesAnotherOperatorIsRefusedAsWrongSignerAndTheRunGoesOn() {
    f.ratchet("w1").start(task, "run-1", ws).close();
    CancelRequest c =
        new CancelRequest(
            "olga",
            dev.ratchet.model.DecisionBinding.run(
                task.taskId(), "run-1", task.policyId(), task.policyVersion()),
            "x",
            "c-1");
    f.deliverUnchecked(
        task.taskId(),
        "run-1",
        "c-1",
        InboxItem.Kind.CANCEL,
        SignedEnvelope.sign(c.toJson().with("operator_id", new JsonString("root")), f.operatorKey));
    try (Run run = f.ratchet("w2").resume(task, "run-1", ws)) {
      assertThat(run.state().phase()).isEqualTo(Phase.RUNNING);
      TraceEvent last = last(run.trace());
      assertThat(last.outcome().wireName()).isEqualTo("cancel_rejected");
      assertThat(last.detail().toString()).contains("wrong_signer").contains("c-1");
    }
  }

  @Test
  void aReviewerDecisionThatNamesAnotherReviewerIsRefusedAndTheRunStaysFrozen() {
    TaskSpec open = f.task();
    Run run = f.ratchet("w1").start(open, "run-2", ws);
    String key =
        run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)))
            .action()
            .idempotencyKey();
    ws.execute(
        new WriteIntent(
            ws.namespace(), "write_file", write("app.py", "evil\n"), "reversible_write"),
        key,
        new Fence("run-2", "intruder", 1),
        ApprovalBinding.NONE);
    assertThat(run.execute("a1").kind()).isEqualTo(StepOutcome.Kind.FROZEN);
    ReviewDecision d = f.decision(run, open, ReviewDecision.ABORT, ws.observe().revision());
    deliverClaiming(
        run.state(),
        InboxItem.Kind.REVIEW_DECISION,
        d.toJson(),
        "reviewer_id",
        "the-board",
        d.nonce(),
        f.reviewerKey);
    assertThatThrownBy(run::resolveReview)
        .isInstanceOf(RatchetException.class)
        .hasMessageContaining("wrong_signer");
    assertThat(run.state().phase()).isEqualTo(Phase.NEEDS_REVIEW);
    run.close();
  }

  private static TraceEvent last(List<TraceEvent> trace) {
    return trace.get(trace.size() - 1);
  }
}
