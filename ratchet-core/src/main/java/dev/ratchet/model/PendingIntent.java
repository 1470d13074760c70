package dev.ratchet.model;

import dev.ratchet.adapter.Observation;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.json.Text;
import java.util.Objects;

/**
 * A write accepted but not yet confirmed (SPEC §2, §7): the action with its minted idempotency key,
 * the intent digest, the environment it was accepted against, and — once consumed — the complete
 * signed approval. It is durably committed before the adapter is ever called. {@code effectStarted}
 * is the D23 mark of an unreceipted write, committed before its adapter runs: a recovery that finds
 * it set cannot know whether the effect happened (ADR 0071). Written to JSON only when set, so
 * checkpoints without unreceipted writes keep their bytes.
 */
public record PendingIntent(
    Action action,
    String intentDigest,
    Observation preState,
    SignedEnvelope approval,
    boolean effectStarted) {

  static final String STARTED = "effect_started";

  public PendingIntent(
      Action action, String intentDigest, Observation preState, SignedEnvelope approval) {
    this(action, intentDigest, preState, approval, false);
  }

  public PendingIntent {
    Objects.requireNonNull(action, "action");
    Text.requireHex64("intent_digest", intentDigest);
    Objects.requireNonNull(preState, "preState");
    if (action.idempotencyKey() == null) {
      throw dev.ratchet.error.RatchetException.contract(
          "pending.action.idempotency_key: must be set");
    }
  }

  public String key() {
    return action.idempotencyKey();
  }

  public PendingIntent withApproval(SignedEnvelope evidence) {
    return new PendingIntent(action, intentDigest, preState, evidence, effectStarted);
  }

  /** The same intent with the D23 {@code effect_started} mark set. */
  public PendingIntent started() {
    return new PendingIntent(action, intentDigest, preState, approval, true);
  }

  public JsonObject toJson() {
    JsonObject.Builder b =
        JsonObject.builder()
            .put("action", action.toJson())
            .put("intent_digest", intentDigest)
            .put("pre_state", preState.toJson())
            .put("approval", approval == null ? JsonNull.INSTANCE : approval.toJson());
    if (effectStarted) {
      b.put(STARTED, true);
    }
    return b.build();
  }

  public static PendingIntent fromJson(JsonValue v, String path) {
    boolean started = Fields.asObject(v, path).members().containsKey(STARTED);
    Fields f =
        started
            ? Fields.exact(v, path, "action", "intent_digest", "pre_state", "approval", STARTED)
            : Fields.exact(v, path, "action", "intent_digest", "pre_state", "approval");
    if (started && !f.bool(STARTED)) {
      throw dev.ratchet.error.RatchetException.contract(
          f.path(STARTED) + ": written only when true");
    }
    return new PendingIntent(
        Action.fromJson(f.raw("action"), f.path("action")),
        f.hex64("intent_digest"),
        Observation.fromJson(f.raw("pre_state"), f.path("pre_state")),
        f.isNull("approval")
            ? null
            : SignedEnvelope.fromJson(f.raw("approval"), f.path("approval")),
        started);
  }
}
