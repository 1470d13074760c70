package dev.ratchet.internal;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.ApprovalRejection;
import dev.ratchet.model.DecisionBinding;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.model.TraceOutcome;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.RecordSet;
import java.util.Objects;

/**
 * Drops a pending write that needs an approval and has none (ADR 0072): an approver's signed
 * rejection from the inbox, consumed under the lease ({@code intent_rejected}), or a driver's
 * withdrawal, e.g. after its approval expired ({@code intent_withdrawn}). Only an unapproved write
 * can be dropped: the adapter is never called before the approval commit, so it never ran. The run
 * goes on with nothing pending; the dropped action id stays used, so a new proposal is a new intent
 * with a new key that needs its own approval.
 */
public final class Rejections {
  private static final String BOUND = "is not bound to this pending write";

  private Rejections() {}

  /**
   * Consumes the first valid rejection of {@code p} (unapproved) and drops it in one commit;
   * returns the trace detail, or null when none applies (invalid ones go into {@code refusals}).
   */
  static JsonObject consume(Engine engine, PendingIntent p, Refusals refusals) {
    RunContext ctx = engine.ctx();
    Engine.Op op = engine.begin();
    for (InboxItem item : ctx.store().inbox(engine.state().taskId(), engine.state().runId())) {
      if (item.kind() != InboxItem.Kind.APPROVAL
          || engine.has(op, RecordSet.NONCES, item.nonce())) {
        continue;
      }
      SignedEnvelope env;
      try {
        env = SignedEnvelope.fromJson(Json.parse(item.envelope()), "rejection");
      } catch (RatchetException e) {
        continue; // not an envelope: the approval check reports it
      }
      if (!ApprovalRejection.isRejection(env.payload())
          || !Objects.equals(
              env.payload().get("action_id").orElse(null),
              new dev.ratchet.json.JsonString(p.action().actionId()))) {
        continue;
      }
      try {
        ApprovalRejection r = authenticate(engine, env, item.nonce(), p);
        engine.consumeNonce(op, r.nonce(), "rejection", env.fingerprint());
        JsonObject detail =
            JsonObject.builder()
                .put("approver_id", r.approverId())
                .put("key_id", env.keyId())
                .put("reason", r.reason())
                .put("nonce", r.nonce())
                .put("idempotency_key", p.key())
                .put("envelope_fingerprint", env.fingerprint())
                .build();
        drop(engine, op, p, TraceOutcome.INTENT_REJECTED, detail);
        return detail;
      } catch (RatchetException e) {
        if (DecisionChecks.fatal(e)) {
          throw e;
        }
        refusals.add(item, e);
      }
    }
    return null;
  }

  /** What the caller of {@code execute} gets for a rejected write. */
  static StepOutcome.Rejected rejected(PendingIntent p, JsonObject detail) {
    return new StepOutcome.Rejected(
        p.action().actionId(),
        "write "
            + p.action().actionId()
            + " was rejected by approver "
            + text(detail, "approver_id")
            + ": "
            + text(detail, "reason")
            + " (the intent is dropped; nothing ran)",
        detail);
  }

  /**
   * Withdraws the pending write {@code actionId}: it must need an approval, have none, and the
   * adapter must hold no receipt under its key (fail closed). Traced {@code intent_withdrawn} with
   * {@code reason}.
   */
  public static StepOutcome.Rejected withdraw(Engine engine, String actionId, String reason) {
    dev.ratchet.json.Text.require("reason", reason);
    Engine.Op op = engine.begin();
    Gates.requireActive(op);
    PendingIntent p = op.b.pending;
    if (p == null || !p.action().actionId().equals(actionId)) {
      throw RatchetException.contract("no pending intent for action '" + actionId + "'");
    }
    if (!engine.ctx().task().requiresApproval(p.action().kind()) || p.approval() != null) {
      throw RatchetException.contract(
          "pending write "
              + actionId
              + " can only be withdrawn while it waits for its approval (it may have run)");
    }
    engine.checkLease();
    if (engine.ctx().adapter().lookup(p.key()).isPresent()) {
      throw RatchetException.contract(
          "pending write " + actionId + " has a receipt under its key: reconcile it instead");
    }
    JsonObject detail =
        JsonObject.builder().put("reason", reason).put("idempotency_key", p.key()).build();
    drop(engine, op, p, TraceOutcome.INTENT_WITHDRAWN, detail);
    return new StepOutcome.Rejected(
        actionId, "write " + actionId + " was withdrawn: " + reason, detail);
  }

  private static void drop(
      Engine engine, Engine.Op op, PendingIntent p, TraceOutcome outcome, JsonObject detail) {
    op.trace(p.action().actionId(), p.action().kind(), outcome, detail);
    op.b.pending = null;
    engine.budgetClose(op);
    engine.commit(op);
  }

  private static ApprovalRejection authenticate(
      Engine engine, SignedEnvelope env, String inboxNonce, PendingIntent p) {
    RunContext ctx = engine.ctx();
    ApprovalRejection r =
        DecisionChecks.authenticate(
            ctx, env, ApprovalRejection.fromJson(env.payload(), "rejection.payload"));
    DecisionChecks.requireSame("rejection", "nonce", r.nonce(), inboxNonce, BOUND);
    DecisionChecks.requireBound(
        r.binding().mismatch(DecisionBinding.of(engine.state(), ctx.task(), p), "intent_digest"),
        "rejection",
        BOUND);
    return r;
  }

  private static String text(JsonObject o, String key) {
    return ((dev.ratchet.json.JsonString) o.get(key).orElseThrow()).value();
  }
}
