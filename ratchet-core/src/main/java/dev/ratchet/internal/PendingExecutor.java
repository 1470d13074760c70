package dev.ratchet.internal;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.EffectKind;
import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonBool;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Approval;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.model.TraceOutcome;
import dev.ratchet.model.WriteLifecycle;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.store.RecordSet;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Executes and reconciles the pending write (reference-behaviour §2.3.6–2.3.7, SPEC §7, D9). The
 * intent with its key is already durable; the approval, when policy needs one, is consumed and
 * committed before the adapter is called; the receipt and the state advance ride together on the
 * run's next commit (D22).
 */
final class PendingExecutor {
  private final Engine engine;
  private final RunContext ctx;
  private final boolean recovering;

  PendingExecutor(Engine engine) {
    this(engine, false);
  }

  /**
   * With {@code recovering}, a pending write that needs an approval no inbox item supplies stays
   * pending and {@link #reconcile} returns null (recovery reports it as awaiting approval) instead
   * of refusing with {@code APPROVAL}.
   */
  PendingExecutor(Engine engine, boolean recovering) {
    this.engine = engine;
    this.ctx = engine.ctx();
    this.recovering = recovering;
  }

  private String awaitingWhy;
  private String rejectedWhy;

  /** After {@link #reconcile} returned null while recovering: why a rejection dropped the write. */
  String rejectedWhy() {
    return rejectedWhy;
  }

  /**
   * After {@link #reconcile} returned null while recovering: why no inbox approval was accepted
   * (each refused item with its nonce, key id and reason).
   */
  String awaitingWhy() {
    return awaitingWhy;
  }

  StepOutcome execute(String actionId) {
    PendingIntent p = requirePending(actionId);
    if (p.effectStarted()) {
      return UncertainEffects.freeze(engine, engine.observe(), "started, no committed result");
    }
    // Unlike the teaching runtime (X5 before X8), the key is looked up first: a receipt already
    // under it means a crash window or a key collision, and both must keep their evidence rather
    // than be discarded as a stale observation (docs/decisions.md, "key lookup first").
    Optional<Receipt> found = ctx.adapter().lookup(p.key());
    if (found.isPresent()) {
      return reconcileReceipt(p, found.get(), engine.observe());
    }
    return executeUnreceipted(p);
  }

  /** Executes a pending write the adapter holds no receipt for, after the exact pre-state check. */
  private StepOutcome executeUnreceipted(PendingIntent p) {
    String actionId = p.action().actionId();
    Observation live = engine.observe();
    if (!live.equals(p.preState())) {
      Engine.Op op = engine.begin();
      op.trace(
          actionId,
          p.action().kind(),
          TraceOutcome.STALE_OBSERVATION,
          Outcomes.error(ErrorCode.STALE_OBSERVATION));
      op.b.pending = null;
      op.b.binding = live;
      engine.budgetClose(op);
      engine.commit(op);
      throw new RatchetException(
          ErrorCode.STALE_OBSERVATION,
          "pending write " + actionId + " was planned against a state that no longer holds");
    }
    Refusals refusals = Approvals.newRefusals();
    if (p.approval() == null && ctx.task().requiresApproval(p.action().kind())) {
      // ADR 0072: a signed rejection drops the unapproved write before any approval is consumed.
      JsonObject rejected = Rejections.consume(engine, p, refusals);
      if (rejected != null && recovering) {
        rejectedWhy = Rejections.rejected(p, rejected).why();
        return null;
      }
      if (rejected != null) {
        return Rejections.rejected(p, rejected);
      }
    }
    PendingIntent approved = ensureApproval(p, refusals);
    if (approved == null) {
      if (recovering) {
        awaitingWhy = Approvals.noneValid(actionId, refusals).getMessage();
        return null;
      }
      return Approvals.awaiting(actionId, refusals);
    }
    if (!UncertainEffects.unreceipted(ctx, approved.action().kind())) {
      return callAndComplete(approved, live, false);
    }
    // D23: in flight from before the started mark until its result is durable, so that no lease
    // is released (close, drain) while the effect may be running or its result is only in memory.
    engine.effectInFlight(true);
    try {
      return callAndComplete(approved, live, true);
    } finally {
      engine.effectInFlight(false);
    }
  }

  private StepOutcome callAndComplete(PendingIntent p, Observation live, boolean unreceipted) {
    Engine.Op op = engine.begin();
    Gates.consumeStep(engine, op);
    if (unreceipted) {
      p = UncertainEffects.markStarted(engine, op, p);
      op = engine.begin();
    }
    engine.checkLease();
    PendingIntent q = p;
    Supplier<AdapterOutcome> call =
        () ->
            ctx.adapter()
                .execute(
                    ActionRules.intent(ctx, q.action()),
                    q.key(),
                    engine.lease().fence(),
                    binding(q));
    UncertainEffects.Ran ran = unreceipted ? UncertainEffects.run(engine, call) : null;
    if (ran != null && ran.frozen() != null) {
      return ran.frozen();
    }
    AdapterOutcome out;
    try {
      out = ran != null ? ran.outcome() : call.get();
    } catch (RatchetException e) {
      if (ran == null && e.code() == ErrorCode.STALE_OBSERVATION) {
        withdrawRefused(op, p);
      }
      throw e;
    }
    if (out.kind() == AdapterOutcome.Kind.CONFLICT) {
      return Freezer.receiptConflict(engine, op, p, out.receipt(), live);
    }
    engine.reached(WriteLifecycle.Step.RECEIVE);
    boolean replayed = out.kind() == AdapterOutcome.Kind.REPLAYED;
    return complete(
        op,
        p,
        out.receipt(),
        replayed ? TraceOutcome.REPLAYED : TraceOutcome.EXECUTED,
        replayed ? StepOutcome.Kind.REPLAYED : StepOutcome.Kind.EXECUTED);
  }

  /**
   * The adapter refused the write because a precondition of its arguments does not hold (an {@code
   * expected_sha256} that is not the file's): nothing took effect (the SPI's contract for {@code
   * STALE_OBSERVATION}), so the intent is withdrawn and traced, and the run is bound to the live
   * state, exactly as when the pre-state no longer holds. Retrying the same intent would meet the
   * same refusal on every resume. A receipt under the key (a contract breach) keeps the intent for
   * reconciliation instead.
   */
  private void withdrawRefused(Engine.Op op, PendingIntent p) {
    if (ctx.adapter().lookup(p.key()).isPresent()) {
      return;
    }
    op.trace(
        p.action().actionId(),
        p.action().kind(),
        TraceOutcome.STALE_OBSERVATION,
        Outcomes.error(ErrorCode.STALE_OBSERVATION).with("refused_by_adapter", JsonBool.TRUE));
    op.b.pending = null;
    op.b.binding = engine.observe();
    engine.budgetClose(op);
    engine.commit(op);
  }

  /**
   * The crash windows of a pending write (SPEC §7): a same-intent receipt whose before is the
   * pre-state and whose after is the live state is reconciled without any side effect; no receipt
   * and an unchanged environment executes once with the same key; a receipt with another intent
   * freezes into review; anything else is drift (D13) and freezes too.
   */
  StepOutcome reconcile(String actionId) {
    PendingIntent p = requirePending(actionId);
    Observation live = engine.observe();
    if (p.effectStarted()) {
      return UncertainEffects.freeze(engine, live, "started, no committed result");
    }
    Optional<Receipt> found = ctx.adapter().lookup(p.key());
    if (found.isEmpty()) {
      if (live.equals(p.preState())) {
        return executeUnreceipted(p);
      }
      return Freezer.drift(engine, live, "environment changed and the adapter holds no receipt");
    }
    return reconcileReceipt(p, found.get(), live);
  }

  /** A receipt exists under the pending key: reconcile it once, or freeze with it as evidence. */
  private StepOutcome reconcileReceipt(PendingIntent p, Receipt r, Observation live) {
    if (!r.intentDigest().equals(p.intentDigest())) {
      Engine.Op op = engine.begin();
      return Freezer.receiptConflict(engine, op, p, r, live);
    }
    String unbound = ReceiptBinding.problem(ctx, p, r, engine.state().runId());
    if (unbound != null) {
      return Freezer.receiptUnbound(engine, p, r, live, unbound);
    }
    if (!explains(p, r, live)) {
      return Freezer.drift(engine, live, "the environment moved past the pending write's receipt");
    }
    Engine.Op op = engine.begin();
    Gates.consumeStep(engine, op);
    return complete(op, p, r, TraceOutcome.RECONCILED, StepOutcome.Kind.RECONCILED);
  }

  /** D9: the receipt's before is the pre-state and its after is exactly the live state. */
  static boolean explains(PendingIntent p, Receipt r, Observation live) {
    Observation pre = p.preState();
    return live.instanceId().equals(pre.instanceId())
        && r.revisionBefore() == pre.revision()
        && r.fingerprintBefore().equals(pre.stateFingerprint())
        && r.revisionAfter() == live.revision()
        && r.fingerprintAfter().equals(live.stateFingerprint())
        && live.identity().equals(pre.identity());
  }

  private StepOutcome complete(
      Engine.Op op, PendingIntent p, Receipt r, TraceOutcome outcome, StepOutcome.Kind kind) {
    String unbound = ReceiptBinding.problem(ctx, p, r, engine.state().runId());
    if (unbound != null) {
      return Freezer.receiptUnbound(engine, p, r, engine.observe(), unbound);
    }
    op.j.append(RecordSet.RECEIPTS, r.idempotencyKey(), r.toJson());
    op.b.pending = null;
    op.b.binding =
        new Observation(
            p.preState().instanceId(),
            r.revisionAfter(),
            r.fingerprintAfter(),
            p.preState().identity());
    op.b.cursor += 1;
    if (r.result().get("cost").orElse(null) instanceof JsonInt c && c.value() > 0) {
      op.b.usage = op.b.usage.withCost(op.b.usage.cost() + c.value());
    }
    op.trace(
        p.action().actionId(),
        p.action().kind(),
        outcome,
        Outcomes.receiptDetail(r, kind != StepOutcome.Kind.EXECUTED));
    engine.budgetClose(op);
    // D22: the receipt rides on the run's next commit; an unreceipted effect's result does not.
    if (engine.carry(op, unreceipted(p))) {
      engine.reached(
          kind == StepOutcome.Kind.RECONCILED
              ? WriteLifecycle.Step.RECONCILE
              : kind == StepOutcome.Kind.REPLAYED
                  ? WriteLifecycle.Step.REPLAY
                  : WriteLifecycle.Step.EXECUTE);
    }
    return new StepOutcome.Done(kind, p.action().actionId(), r.result(), r);
  }

  /**
   * Makes sure the pending write carries fresh, exactly bound approval evidence when policy needs
   * it: keeps current evidence, or consumes one from the inbox (sealing expired evidence into the
   * trace) in its own commit, before any adapter call. Otherwise the intent stays frozen: the
   * refusal is committed to the trace, the reasons are added to {@code refusals}, and null is
   * returned.
   */
  private PendingIntent ensureApproval(PendingIntent p, Refusals refusals) {
    if (!ctx.task().requiresApproval(p.action().kind())) {
      return p;
    }
    Engine.Op op = engine.begin();
    if (p.approval() != null) {
      try {
        Approval a = Approvals.authenticate(ctx, p.approval());
        Approvals.checkBinding(
            ctx,
            engine.state(),
            a,
            p.action(),
            p.intentDigest(),
            p.preState(),
            op.b.usage.proposals(),
            true);
        return p;
      } catch (RatchetException stale) {
        // Expired or no longer valid: look for a fresh approval below.
      }
    }
    SignedEnvelope fresh =
        Approvals.findValid(engine, op, p.action(), p.intentDigest(), p.preState(), refusals);
    if (fresh == null) {
      op.trace(
          p.action().actionId(),
          p.action().kind(),
          TraceOutcome.AWAITING_APPROVAL,
          JsonObject.builder()
              .put("error_code", ErrorCode.APPROVAL.name())
              .put("pending_frozen", true)
              .put(Refusals.FIELD, refusals.toJson())
              .build());
      engine.commit(op);
      return null;
    }
    Approval a = Approval.fromJson(fresh.payload(), "approval.payload");
    engine.consumeNonce(op, a.nonce(), "approval", fresh.fingerprint());
    if (p.approval() != null) {
      op.trace(
          p.action().actionId(),
          p.action().kind(),
          TraceOutcome.APPROVAL_REFRESHED,
          JsonObject.builder()
              .put("approver_id", a.approverId())
              .put("superseded_approval_evidence", p.approval().toJson())
              .build());
    } else {
      op.trace(
          p.action().actionId(),
          p.action().kind(),
          TraceOutcome.APPROVAL_CONSUMED,
          JsonObject.builder().put("approver_id", a.approverId()).put("nonce", a.nonce()).build());
    }
    PendingIntent approved = p.withApproval(fresh);
    op.b.pending = approved;
    engine.commit(op);
    engine.reached(
        p.approval() != null ? WriteLifecycle.Step.REFRESH : WriteLifecycle.Step.APPROVE);
    return approved;
  }

  /** D23: nothing can look this effect up again, so its result is committed at once. */
  private boolean unreceipted(PendingIntent p) {
    ActionSpec spec = ctx.specs().get(p.action().kind());
    return spec != null && spec.effectKind() == EffectKind.UNRECEIPTED;
  }

  private ApprovalBinding binding(PendingIntent p) {
    if (p.approval() == null) {
      return ApprovalBinding.NONE;
    }
    Approval a = Approval.fromJson(p.approval().payload(), "approval.payload");
    return new ApprovalBinding(p.approval().fingerprint(), a.expiresAtMs());
  }

  private PendingIntent requirePending(String actionId) {
    Engine.Op op = engine.begin();
    Gates.requireActive(op);
    PendingIntent p = op.b.pending;
    if (p == null || !p.action().actionId().equals(actionId)) {
      throw RatchetException.contract("no pending intent for action '" + actionId + "'");
    }
    return p;
  }
}
