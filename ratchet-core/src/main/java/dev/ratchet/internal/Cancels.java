package dev.ratchet.internal;

import dev.ratchet.adapter.Observation;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.CancelRequest;
import dev.ratchet.model.DecisionBinding;
import dev.ratchet.model.Phase;
import dev.ratchet.model.PhaseTransitions.Transition;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.model.TraceOutcome;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.RecordSet;

/**
 * Consumes an operator's signed cancel from the inbox under the lease (issue 17, SPEC D12, D19).
 * Every cancel item is consumed once, accepted or refused (its nonce goes into the nonces set with
 * the commit), so a refusal is traced once and never repeated. The first valid one wins: with no
 * pending write the run ends {@code cancelled}; with one it freezes in {@code needs_review} with
 * reason {@code cancel_requested}, because only a reviewer may decide about a write that may have
 * happened.
 */
final class Cancels {
  static final String REASON = "cancelled_by_operator";
  private static final String BOUND = "is not bound to this run";

  private Cancels() {}

  /**
   * Applies the first valid unconsumed cancel of a running or paused run and commits; null when
   * none applies (refused items are still consumed and traced, in one commit).
   */
  static StepOutcome consume(Engine engine, Observation live) {
    RunContext ctx = engine.ctx();
    Phase phase = engine.state().phase();
    if (phase != Phase.RUNNING && phase != Phase.PAUSED) {
      return null; // D37: a paused run (nothing pending) is cancelled as directly as a running one
    }
    Engine.Op op = engine.begin();
    Refusals refusals = new Refusals();
    for (InboxItem item : ctx.store().inbox(engine.state().taskId(), engine.state().runId())) {
      if (item.kind() != InboxItem.Kind.CANCEL || engine.has(op, RecordSet.NONCES, item.nonce())) {
        continue;
      }
      try {
        SignedEnvelope env = SignedEnvelope.fromJson(Json.parse(item.envelope()), "cancel");
        CancelRequest c = authenticate(ctx, engine, env, item.nonce());
        engine.consumeNonce(op, c.nonce(), "cancel", env.fingerprint());
        traceRefusals(op, refusals);
        JsonObject detail =
            JsonObject.builder()
                .put("operator_id", c.operatorId())
                .put("key_id", env.keyId())
                .put("cancel_reason", c.reason())
                .put("nonce", c.nonce())
                .put("envelope_fingerprint", env.fingerprint())
                .build();
        if (op.b.pending != null) {
          return Freezer.cancelRequested(engine, op, live, detail);
        }
        op.b.stopReason = REASON;
        op.transition(
            phase == Phase.PAUSED ? Transition.PAUSED_CANCEL : Transition.OPERATOR_CANCEL,
            null,
            null,
            detail.with("phase", new dev.ratchet.json.JsonString(Phase.CANCELLED.wireName())));
        engine.commit(op);
        return new StepOutcome.Done(StepOutcome.Kind.EXECUTED, null, detail, null);
      } catch (RatchetException e) {
        if (DecisionChecks.fatal(e)) {
          throw e;
        }
        refusals.add(item, e);
        engine.consumeNonce(
            op, item.nonce(), "cancel_refused", Canonical.sha256Hex(item.envelope()));
      }
    }
    if (!refusals.isEmpty()) {
      traceRefusals(op, refusals);
      engine.commit(op);
    }
    return null;
  }

  private static CancelRequest authenticate(
      RunContext ctx, Engine engine, SignedEnvelope env, String inboxNonce) {
    CancelRequest c =
        DecisionChecks.authenticate(
            ctx, env, CancelRequest.fromJson(env.payload(), "cancel.payload"));
    DecisionChecks.requireBound(
        c.binding().runMismatch(DecisionBinding.ofRun(engine.state(), ctx.task())),
        "cancel",
        BOUND);
    DecisionChecks.requireSame("cancel", "nonce", c.nonce(), inboxNonce, BOUND);
    return c;
  }

  private static void traceRefusals(Engine.Op op, Refusals refusals) {
    if (refusals.isEmpty()) {
      return;
    }
    op.trace(
        null,
        null,
        TraceOutcome.CANCEL_REJECTED,
        JsonObject.builder()
            .put("error_code", ErrorCode.APPROVAL.name())
            .put(Refusals.FIELD, refusals.toJson())
            .build());
  }
}
