package dev.ratchet.internal;

import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Action;
import dev.ratchet.model.Approval;
import dev.ratchet.model.Cause;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.model.TraceOutcome;
import dev.ratchet.model.WriteLifecycle;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.store.RecordSet;
import java.util.Optional;

/**
 * {@code propose} (reference-behaviour §2.3.2): the gates, the guarded checks in their order, the
 * replay branch and the durable pending intent. Every proposal that passes the gates counts, and
 * every outcome — accepted or rejected — is committed with its trace event.
 */
final class Proposer {
  private final Engine engine;
  private final RunContext ctx;

  Proposer(Engine engine) {
    this.engine = engine;
    this.ctx = engine.ctx();
  }

  Proposal propose(Action action, Cause cause) {
    engine.reached(WriteLifecycle.Step.BEGIN);
    Engine.Op op = opening(cause);
    try {
      return guarded(op, action);
    } catch (RatchetException e) {
      if (e.code() == ErrorCode.TERMINAL
          || e.code() == ErrorCode.CHECKPOINT
          || e.code() == ErrorCode.FENCED
          || e.code() == ErrorCode.STORE_UNAVAILABLE) {
        throw e;
      }
      RatchetException refusal = e;
      if (usedBefore(action)) {
        // Refused as before the store was asked: a fresh operation, nothing of this proposal kept.
        op = opening(cause);
        refusal = alreadyUsed(action);
      }
      JsonObject.Builder detail = JsonObject.builder().put("error_code", refusal.code().name());
      if (Refusals.of(refusal) != null) {
        detail.put(Refusals.FIELD, Refusals.of(refusal));
      }
      op.trace(
          action.actionId(), action.kind(), Outcomes.rejection(refusal.code()), detail.build());
      engine.budgetClose(op);
      engine.commit(op);
      throw refusal;
    }
  }

  /**
   * The operation a proposal starts with: gates passed, its cause recorded, the proposal counted.
   */
  private Engine.Op opening(Cause cause) {
    Engine.Op op = engine.begin();
    Gates.beforeProposal(engine, op);
    if (cause != null) {
      Causes.record(engine, op, cause);
    }
    op.b.usage = op.b.usage.withProposals(op.b.usage.proposals() + 1);
    return op;
  }

  /**
   * Whether the run used this action id before. Asked only once a proposal failed (ADR 0044): on
   * the way to a commit the id's record rides on it, and the store's unique key refuses a used id
   * (the commit writes nothing), so an accepted proposal reads nothing.
   */
  private boolean usedBefore(Action action) {
    return engine.find(RecordSet.ACTION_IDS, action.actionId()).isPresent();
  }

  private static RatchetException alreadyUsed(Action action) {
    return RatchetException.contract(
        "action.action_id: '" + action.actionId() + "' was already used in this run");
  }

  private Proposal guarded(Engine.Op op, Action action) {
    if (op.b.pending != null) {
      throw RatchetException.contract(
          "an intent is pending ("
              + op.b.pending.action().actionId()
              + "): execute or reconcile it first");
    }
    // No read here (ADR 0044): a used id is refused by the store when this op commits.
    op.j.append(
        RecordSet.ACTION_IDS,
        action.actionId(),
        JsonObject.builder().put("action_id", action.actionId()).build());
    ActionRules.validate(ctx, action);
    if (action.deadlineProposal() < op.b.usage.proposals()) {
      throw RatchetException.contract(
          "action.deadline_proposal: " + action.deadlineProposal() + " has passed");
    }
    ActionRules.authorize(ctx, action);
    String digest = ActionRules.intentDigest(ctx, action);
    Observation live = engine.observe();
    if (!"cancel".equals(action.kind()) && action.environmentRevision() != live.revision()) {
      throw new RatchetException(
          ErrorCode.STALE_OBSERVATION,
          "action.environment_revision: "
              + action.environmentRevision()
              + " is not the live revision "
              + live.revision());
    }
    op.b.binding = live;
    boolean write = ActionRules.isWrite(ctx, action);
    boolean presentedKey = write && action.idempotencyKey() != null;
    if (ctx.task().requiresApproval(action.kind()) && (!write || presentedKey)) {
      consumeApprovalNow(op, action, digest, live);
    }
    if (presentedKey) {
      return replay(op, action, digest);
    }
    if (write) {
      Proposal inherited = Inherited.replay(engine, op, action, digest); // D37: a forked run
      if (inherited != null) {
        return inherited;
      }
    }
    Gates.stepGate(engine, op);
    if (!write) {
      engine.commit(op);
      return new Proposal(Proposal.Kind.READY, action, null);
    }
    // ADR 0031: the key is a function of the action id, so a re-proposed id (even one whose
    // action-id row was deleted) meets its earlier effect in the adapter's key lookup.
    Action keyed =
        action.withIdempotencyKey(
            IdempotencyKeys.mint(engine.state(), action.actionId(), ctx.entropy()));
    op.b.pending = new PendingIntent(keyed, digest, live, null);
    op.trace(
        keyed.actionId(),
        keyed.kind(),
        TraceOutcome.ACCEPTED_PENDING,
        JsonObject.builder()
            .put("idempotency_key", keyed.idempotencyKey())
            .put("intent_digest", digest)
            .build());
    engine.commit(op);
    engine.reached(WriteLifecycle.Step.PROPOSE);
    return new Proposal(Proposal.Kind.PENDING, keyed, null);
  }

  /** Approval for a non-write, or for a replay of a key the run holds (P7: before idempotency). */
  private void consumeApprovalNow(Engine.Op op, Action action, String digest, Observation live) {
    Refusals refusals = Approvals.newRefusals();
    SignedEnvelope env = Approvals.findValid(engine, op, action, digest, live, refusals);
    if (env == null) {
      throw Approvals.noneValid(action.actionId(), refusals);
    }
    Approval a = Approval.fromJson(env.payload(), "approval.payload");
    engine.consumeNonce(op, a.nonce(), "approval", env.fingerprint());
  }

  /** P8: same key + same intent reuses the adapter's receipt; anything else is a conflict. */
  private Proposal replay(Engine.Op op, Action action, String digest) {
    String key = action.idempotencyKey();
    if (engine.has(op, RecordSet.QUARANTINED_KEYS, key)) {
      throw conflict("idempotency key is quarantined by a reviewer decision");
    }
    Optional<Receipt> cached = engine.cachedReceipt(key);
    if (cached.isEmpty()) {
      throw conflict("the run holds no receipt for the presented key (keys are minted, D4)");
    }
    engine.checkLease();
    Optional<Receipt> authoritative = ctx.adapter().lookup(key);
    if (authoritative.isEmpty()) {
      throw conflict("the adapter has no receipt for the key the run cached");
    }
    if (!authoritative.get().fingerprint().equals(cached.get().fingerprint())) {
      throw conflict("the cached receipt and the adapter's receipt differ");
    }
    if (!authoritative.get().intentDigest().equals(digest)) {
      throw conflict("the key is bound to a different intent");
    }
    Receipt r = authoritative.get();
    op.b.cursor += 1;
    op.trace(
        action.actionId(), action.kind(), TraceOutcome.REPLAYED, Outcomes.receiptDetail(r, true));
    engine.budgetClose(op);
    engine.commit(op);
    StepOutcome out =
        new StepOutcome.Done(StepOutcome.Kind.REPLAYED, action.actionId(), r.result(), r);
    return new Proposal(Proposal.Kind.REPLAYED, action, out);
  }

  private static RatchetException conflict(String message) {
    return new RatchetException(ErrorCode.IDEMPOTENCY_CONFLICT, message);
  }
}
