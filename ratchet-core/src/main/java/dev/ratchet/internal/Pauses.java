package dev.ratchet.internal;

import dev.ratchet.error.DecisionRefused;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.DecisionBinding;
import dev.ratchet.model.PauseDecision;
import dev.ratchet.model.Phase;
import dev.ratchet.model.PhaseTransitions.Transition;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.model.TraceOutcome;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.RecordSet;

/**
 * Consumes operators' signed pauses and unpauses from the inbox under the lease (SPEC D37, ADR
 * 0130), in delivery order, at a step boundary with nothing pending: a write in flight completes
 * first, so a pending write leaves every item waiting. A pause moves {@code running → paused}, an
 * unpause {@code paused → running}, each in its own commit (one transition per commit). Every item
 * is consumed once: a refused one (untrusted, bad signature, wrong binding, malformed, or a pause
 * of a run that is not running) goes into the nonces set and is traced once as {@code
 * pause_rejected}, and the run's phase does not change.
 */
final class Pauses {
  static final String REASON = "paused_by_operator";
  private static final String BOUND = "is not bound to this run";

  private Pauses() {}

  /** True when the item is a pause or an unpause. */
  static boolean isPause(InboxItem item) {
    return item.kind() == InboxItem.Kind.PAUSE || item.kind() == InboxItem.Kind.UNPAUSE;
  }

  /**
   * Applies the waiting pause and unpause items of a running or paused run with nothing pending,
   * committing each applied one (and the refused ones with it); returns the detail of the last
   * applied decision, or null when none applied.
   */
  static JsonObject consume(Engine engine) {
    RunContext ctx = engine.ctx();
    Phase start = engine.state().phase();
    if ((start != Phase.RUNNING && start != Phase.PAUSED) || engine.state().pending() != null) {
      return null;
    }
    JsonObject applied = null;
    Engine.Op op = engine.begin();
    Refusals refusals = new Refusals();
    for (InboxItem item : ctx.store().inbox(engine.state().taskId(), engine.state().runId())) {
      if (item.kind() == InboxItem.Kind.MIGRATE
          && op.b.phase() == Phase.PAUSED
          && !engine.has(op, RecordSet.NONCES, item.nonce())) {
        break; // a migration delivered before the next item applies first (Migrations), paused
      }
      if (!isPause(item) || engine.has(op, RecordSet.NONCES, item.nonce())) {
        continue;
      }
      try {
        SignedEnvelope env = SignedEnvelope.fromJson(Json.parse(item.envelope()), "pause");
        PauseDecision d = authenticate(ctx, engine, env, item);
        Transition t =
            d.decision() == PauseDecision.Kind.PAUSE ? Transition.PAUSE : Transition.UNPAUSE;
        if (t.from() != op.b.phase()) {
          throw new DecisionRefused(
              DecisionRefused.Reason.WRONG_BINDING,
              "pause.decision: "
                  + d.decision().wireName()
                  + " of a run that is "
                  + op.b.phase().wireName());
        }
        engine.consumeNonce(op, d.nonce(), d.decision().wireName(), env.fingerprint());
        traceRefusals(op, refusals);
        refusals = new Refusals();
        op.b.stopReason = t == Transition.PAUSE ? REASON : null;
        applied =
            JsonObject.builder()
                .put("decision", d.decision().wireName())
                .put("operator_id", d.operatorId())
                .put("key_id", env.keyId())
                .put("pause_reason", d.reason())
                .put("nonce", d.nonce())
                .put("envelope_fingerprint", env.fingerprint())
                .put("phase", t.to().wireName())
                .build();
        op.transition(t, null, null, applied);
        engine.commit(op);
        op = engine.begin();
      } catch (RatchetException e) {
        if (DecisionChecks.fatal(e) || e.code() == ErrorCode.INTERNAL) {
          throw e; // a tampered record (D20), a lost lease or a bug: never a mere refusal
        }
        refusals.add(item, e);
        engine.consumeNonce(
            op, item.nonce(), "pause_refused", Canonical.sha256Hex(item.envelope()));
      }
    }
    if (!refusals.isEmpty()) {
      traceRefusals(op, refusals);
      engine.commit(op);
    }
    return applied;
  }

  private static PauseDecision authenticate(
      RunContext ctx, Engine engine, SignedEnvelope env, InboxItem item) {
    PauseDecision d =
        DecisionChecks.authenticate(
            ctx, env, PauseDecision.fromJson(env.payload(), "pause.payload"));
    DecisionChecks.requireSame("pause", "decision", d.inboxKind(), item.kind(), BOUND);
    DecisionChecks.requireBound(
        d.binding().runMismatch(DecisionBinding.ofRun(engine.state(), ctx.task())), "pause", BOUND);
    DecisionChecks.requireSame("pause", "nonce", d.nonce(), item.nonce(), BOUND);
    return d;
  }

  private static void traceRefusals(Engine.Op op, Refusals refusals) {
    if (!refusals.isEmpty()) {
      op.trace(
          null,
          null,
          TraceOutcome.PAUSE_REJECTED,
          JsonObject.builder()
              .put("error_code", ErrorCode.APPROVAL.name())
              .put(Refusals.FIELD, refusals.toJson())
              .build());
    }
  }
}
