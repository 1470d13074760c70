package dev.ratchet.internal;

import dev.ratchet.adapter.ActionClass;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.Approval;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.model.Phase;
import dev.ratchet.model.RunState;
import dev.ratchet.model.TaskSpec;

/**
 * Cross-state invariants (reference-behaviour §3.4, generalised): checked before every commit, so
 * an invalid state never advances the mark, and at every recovery. Every failure is {@code
 * CHECKPOINT}. Explicit checks, never the {@code assert} keyword.
 */
final class Invariants {
  private Invariants() {}

  /** {@code taskFingerprint} is {@code ctx.task().fingerprint()}, which a run computes once. */
  public static void check(RunContext ctx, String taskFingerprint, RunState s) {
    try {
      checkStrict(ctx, taskFingerprint, s);
    } catch (RatchetException e) {
      if (e.code() == ErrorCode.CHECKPOINT) {
        throw e;
      }
      throw new RatchetException(ErrorCode.CHECKPOINT, "invalid run state: " + e.getMessage(), e);
    }
  }

  private static void checkStrict(RunContext ctx, String taskFingerprint, RunState s) {
    TaskSpec t = ctx.task();
    require(s.taskId().equals(t.taskId()), "task_id differs from the supplied task");
    require(s.taskFingerprint().equals(taskFingerprint), "task or policy changed (fingerprint)");
    require(s.taskVersion().equals(t.taskVersion()), "task_version differs");
    require(s.policyId().equals(t.policyId()), "policy_id differs");
    require(s.policyVersion().equals(t.policyVersion()), "policy_version differs");
    require(s.usage().proposals() <= t.budgets().maxProposals(), "proposals exceed the budget");
    require(s.usage().steps() <= t.budgets().maxSteps(), "steps exceed the budget");
    // Every completed action was proposed first.
    require(s.cursor() <= s.usage().proposals(), "cursor is past the actions proposed");
    if (s.verified() != null) {
      require(
          s.verified().revision() <= s.binding().revision(),
          "verifier evidence is newer than the environment binding");
      require(
          s.verified().traceSequence() <= s.sets().get(dev.ratchet.store.RecordSet.TRACE).count(),
          "verifier evidence points past the trace");
    }
    checkPhase(s);
    if (s.pending() != null) {
      checkPending(ctx, s, s.pending());
    }
    if (s.review() != null && s.review().pending() != null) {
      require(s.review().pending().equals(s.pending()), "open case's pending intent differs");
    }
  }

  private static void checkPhase(RunState s) {
    Phase p = s.phase();
    if (p == Phase.RUNNING) {
      require(s.stopReason() == null, "a running run has no stop reason");
      require(s.review() == null, "a running run has no open review case");
    } else if (p == Phase.NEEDS_REVIEW) {
      require(s.review() != null, "needs_review requires an open review case");
      require(s.review().reason().equals(s.stopReason()), "stop reason differs from the case");
    } else {
      require(s.stopReason() != null && !s.stopReason().isBlank(), "terminal run needs a reason");
      require(s.pending() == null, "terminal run has a pending intent");
      require(s.review() == null, "terminal run has an open review case");
    }
    if (p == Phase.COMPLETED) {
      require("verified_outcome".equals(s.stopReason()), "completed needs verified_outcome");
      require(s.verified() != null, "completed needs verifier evidence");
      require(
          s.verified().revision() == s.binding().revision()
              && s.verified().stateFingerprint().equals(s.binding().stateFingerprint()),
          "completion evidence is not bound to the final environment");
    }
  }

  private static void checkPending(RunContext ctx, RunState s, PendingIntent p) {
    require(
        ActionRules.classOf(ctx, p.action().kind()) == ActionClass.WRITE,
        "only writes can be pending");
    require(
        ActionRules.intentDigest(ctx, p.action()).equals(p.intentDigest()),
        "pending intent digest does not match its action");
    require(p.preState().equals(s.binding()), "pending pre-state is not the environment binding");
    require(
        !p.effectStarted() || UncertainEffects.unreceipted(ctx, p.action().kind()),
        "only an unreceipted write carries an effect_started mark");
    boolean needs = ctx.task().requiresApproval(p.action().kind());
    if (!needs) {
      require(p.approval() == null, "approval evidence on an action policy does not gate");
      return;
    }
    if (p.approval() != null) {
      Approval a = Approvals.authenticate(ctx, p.approval());
      Approvals.checkBinding(
          ctx, s, a, p.action(), p.intentDigest(), p.preState(), s.usage().proposals(), false);
    }
  }

  private static void require(boolean ok, String rule) {
    if (!ok) {
      throw RatchetException.checkpoint("invalid run state: " + rule);
    }
  }
}
