package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.Approval;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.store.RecordSet;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** SPEC §6: approval-gated writes run only with fresh, exactly bound, single-use approvals. */
class ApprovalTest {
  private final RuntimeFixture f = RuntimeFixture.inMemory(31);
  private final TaskSpec task = f.task("write_file");
  private final InMemoryWorkspace ws = f.workspace();

  private static void assertCode(Throwable t, ErrorCode code) {
    assertThat(t).isInstanceOf(RatchetException.class);
    assertThat(((RatchetException) t).code()).isEqualTo(code);
  }

  @Test
  @Rules({
    "R2.3.6-approval-frozen",
    "R2.3.3-approval-consumption",
    "R1.10-approval",
    "R2.3.1-inbox"
  })
  void aGatedWriteWaitsFrozenUntilApprovedThenRunsOnce() {
    Run run = f.ratchet("w1").start(task, "run-1", ws);
    Proposal p = run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    long steps = run.state().usage().steps();
    RuntimeFixture.awaitingWhy(run.execute("a1"));
    assertThat(run.state().pending()).isNotNull();
    assertThat(run.state().usage().steps()).isEqualTo(steps);
    assertThat(ws.effects(p.action().idempotencyKey())).isZero();

    var env = f.approvePending(run, task, Duration.ofHours(1));
    StepOutcome o = run.execute("a1");
    assertThat(o.kind()).isEqualTo(StepOutcome.Kind.EXECUTED);
    assertThat(o.receipt().approvalFingerprint()).isEqualTo(env.fingerprint());
    assertThat(ws.effects(p.action().idempotencyKey())).isEqualTo(1);
    String nonce = Approval.fromJson(env.payload(), "a").nonce();
    assertThat(f.store.find(task.taskId(), "run-1", RecordSet.NONCES, nonce)).isPresent();
    assertThat(f.store.inbox(task.taskId(), "run-1")).isEmpty();
  }

  @Test
  @Rules("R1.10-approval")
  void anApprovalIsBoundToThePendingWriteAndNeedsOne() {
    Run run = f.ratchet("w1").start(task, "run-1", ws);
    Throwable none =
        org.assertj.core.api.Assertions.catchThrowable(
            () -> Approval.ofPending("alice", run.state(), task, 10, 1, "n1"));
    assertCode(none, ErrorCode.CONTRACT);
    run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    var pending = run.state().pending();
    Approval a = Approval.ofPending("alice", run.state(), task, 10, 1, "n1");
    assertThat(a.idempotencyKey()).isEqualTo(pending.key());
    assertThat(a.intentDigest()).isEqualTo(pending.intentDigest());
    assertThat(a.actionId()).isEqualTo("a1");
    assertThat(a.stateFingerprint()).isEqualTo(pending.preState().stateFingerprint());
    assertThat(a.environmentRevision()).isEqualTo(pending.preState().revision());
  }

  @Test
  @Rules("R1.10-approval")
  void misboundUntrustedOrReusedApprovalsAreRefused() {
    Run run = f.ratchet("w1").start(task, "run-1", ws);
    run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    var s = run.state();
    var p = s.pending();
    Approval good =
        new Approval(
            "alice",
            new dev.ratchet.model.DecisionBinding(
                s.taskId(),
                s.runId(),
                task.policyId(),
                task.policyVersion(),
                "a1",
                p.key(),
                p.intentDigest()),
            p.preState().instanceId(),
            p.preState().stateFingerprint(),
            p.preState().revision(),
            100,
            f.clock.millis() + 3_600_000,
            "n-1");
    // wrong digest, wrong revision, wrong key, untrusted signer, reviewer key, expired
    Approval[] bad = {
      with(good, "n-2", "0".repeat(64), good.environmentRevision(), good.idempotencyKey()),
      with(good, "n-3", good.intentDigest(), good.environmentRevision() + 1, good.idempotencyKey()),
      with(good, "n-4", good.intentDigest(), good.environmentRevision(), "other-key"),
    };
    for (Approval a : bad) {
      f.deliverApproval(s, a, f.approverKey);
    }
    f.deliverApproval(
        s,
        with(good, "n-5", good.intentDigest(), good.environmentRevision(), good.idempotencyKey()),
        f.reviewerKey);
    Approval expired =
        new Approval(
            "alice",
            new dev.ratchet.model.DecisionBinding(
                s.taskId(),
                s.runId(),
                task.policyId(),
                task.policyVersion(),
                "a1",
                p.key(),
                p.intentDigest()),
            p.preState().instanceId(),
            p.preState().stateFingerprint(),
            p.preState().revision(),
            100,
            f.clock.millis(),
            "n-6");
    f.deliverApproval(s, expired, f.approverKey);
    assertThat(RuntimeFixture.awaitingWhy(run.execute("a1")))
        .contains("n-2")
        .contains("n-3")
        .contains("n-4")
        .contains("n-5")
        .contains("n-6");
    assertThat(ws.ledger()).isEmpty();
  }

  private static Approval with(Approval g, String nonce, String digest, long rev, String key) {
    return new Approval(
        g.approverId(),
        new dev.ratchet.model.DecisionBinding(
            g.taskId(), g.runId(), g.policyId(), g.policyVersion(), g.actionId(), key, digest),
        g.environmentInstanceId(),
        g.stateFingerprint(),
        rev,
        g.expiresAtProposal(),
        g.expiresAtMs(),
        nonce);
  }

  @Test
  @Rules({"R3.5-expired-approval", "R2.3.9-refresh"})
  void expiredEvidenceLoadsFrozenAndAFreshApprovalUnfreezesIt() {
    CrashPlan plan = new CrashPlan();
    Run run = f.ratchet("w1", plan).start(task, "run-1", ws);
    run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    var old = f.approvePending(run, task, Duration.ofMinutes(10));
    plan.arm(CrashPoint.AFTER_APPROVAL_COMMIT);
    assertThatThrownBy(() -> run.execute("a1")).isInstanceOf(SimulatedCrash.class);
    f.clock.advance(Duration.ofHours(1));

    Run recovered = f.ratchet("w2").resume(task, "run-1", ws);
    assertThat(recovered.recovery().did())
        .isEqualTo(dev.ratchet.outcome.Recovery.Did.AWAITING_APPROVAL);
    assertThat(recovered.state().pending().approval()).isEqualTo(old);
    assertThat(ws.ledger()).isEmpty();
    RuntimeFixture.awaitingWhy(recovered.reconcile());

    f.approvePending(recovered, task, Duration.ofHours(1));
    StepOutcome o = recovered.reconcile();
    assertThat(o.kind()).isEqualTo(StepOutcome.Kind.EXECUTED);
    assertThat(ws.ledger()).hasSize(1);
    long refreshed =
        f.store.records(task.taskId(), "run-1", RecordSet.TRACE, 1, 1000).stream()
            .filter(r -> r.body().contains("approval_refreshed"))
            .filter(r -> r.body().contains(old.signatureEd25519()))
            .count();
    assertThat(refreshed).isEqualTo(1);
    assertThat(recovered.state().phase()).isEqualTo(Phase.RUNNING);
  }
}
