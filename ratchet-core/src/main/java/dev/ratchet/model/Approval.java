package dev.ratchet.model;

import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;

/**
 * The payload of a signed approval (SPEC §6): authorises exactly one pending action, bound (its
 * {@link DecisionBinding}) to the task, run and policy, the action id, idempotency key and intent
 * digest, and to the environment the approver saw (instance, state fingerprint, revision — never
 * the checkpoint generation, D1). It expires by wall clock and by proposal count and its nonce is
 * single-use.
 */
public record Approval(
    String approverId,
    DecisionBinding binding,
    String environmentInstanceId,
    String stateFingerprint,
    long environmentRevision,
    long expiresAtProposal,
    long expiresAtMs,
    String nonce)
    implements ApproverDecision {

  /**
   * An approval of {@code s}'s pending write, bound to everything the runtime checks (the pending
   * action, key, intent digest and pre-state), valid until either expiry.
   */
  public static Approval ofPending(
      String approverId,
      RunState s,
      TaskSpec task,
      long expiresAtProposal,
      long expiresAtMs,
      String nonce) {
    DecisionBinding b = DecisionBinding.ofPending(s, task, "approve");
    PendingIntent p = s.pending();
    return new Approval(
        approverId,
        b,
        p.preState().instanceId(),
        p.preState().stateFingerprint(),
        p.preState().revision(),
        expiresAtProposal,
        expiresAtMs,
        nonce);
  }

  static final String[] KEYS = {
    "approver_id",
    "task_id",
    "run_id",
    "policy_id",
    "policy_version",
    "action_id",
    "idempotency_key",
    "intent_digest",
    "environment_instance_id",
    "state_fingerprint",
    "environment_revision",
    "expires_at_proposal",
    "expires_at_ms",
    "nonce"
  };

  @Override
  public JsonObject toJson() {
    JsonObject.Builder b = JsonObject.builder().put("approver_id", approverId);
    binding.writeRun(b);
    binding.writeIntent(b, "intent_digest");
    return b.put("environment_instance_id", environmentInstanceId)
        .put("state_fingerprint", stateFingerprint)
        .put("environment_revision", environmentRevision)
        .put("expires_at_proposal", expiresAtProposal)
        .put("expires_at_ms", expiresAtMs)
        .put("nonce", nonce)
        .build();
  }

  public static Approval fromJson(JsonValue v, String path) {
    Fields f = Fields.exact(v, path, KEYS);
    return new Approval(
        f.text("approver_id"),
        DecisionBinding.read(f, DecisionBinding.Intent.KEY_NULLABLE, "intent_digest"),
        f.text("environment_instance_id"),
        f.hex64("state_fingerprint"),
        f.integer("environment_revision", 0, JsonInt.MAX_SAFE),
        f.integer("expires_at_proposal", 1, JsonInt.MAX_SAFE),
        f.integer("expires_at_ms", 1, JsonInt.MAX_SAFE),
        f.text("nonce"));
  }
}
