package dev.ratchet.model;

import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;

/**
 * The payload of a signed approval (SPEC §6): authorises exactly one pending action, bound to the
 * task, run and policy, the action id, idempotency key and intent digest, and the environment the
 * approver saw (instance, state fingerprint, revision — never the checkpoint generation, D1). It
 * expires by wall clock and by proposal count and its nonce is single-use.
 */
public record Approval(
    String approverId,
    String taskId,
    String runId,
    String policyId,
    String policyVersion,
    String actionId,
    String idempotencyKey,
    String intentDigest,
    String environmentInstanceId,
    String stateFingerprint,
    long environmentRevision,
    long expiresAtProposal,
    long expiresAtMs,
    String nonce) {

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
    PendingIntent p = s.pending();
    if (p == null) {
      throw dev.ratchet.error.RatchetException.contract(
          "pending: the run has no pending write to approve");
    }
    return new Approval(
        approverId,
        s.taskId(),
        s.runId(),
        task.policyId(),
        task.policyVersion(),
        p.action().actionId(),
        p.key(),
        p.intentDigest(),
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

  public JsonObject toJson() {
    return JsonObject.builder()
        .put("approver_id", approverId)
        .put("task_id", taskId)
        .put("run_id", runId)
        .put("policy_id", policyId)
        .put("policy_version", policyVersion)
        .put("action_id", actionId)
        .put(
            "idempotency_key",
            idempotencyKey == null ? JsonNull.INSTANCE : new JsonString(idempotencyKey))
        .put("intent_digest", intentDigest)
        .put("environment_instance_id", environmentInstanceId)
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
        f.text("task_id"),
        f.text("run_id"),
        f.text("policy_id"),
        f.text("policy_version"),
        f.text("action_id"),
        f.isNull("idempotency_key") ? null : f.text("idempotency_key", 200),
        f.hex64("intent_digest"),
        f.text("environment_instance_id"),
        f.hex64("state_fingerprint"),
        f.integer("environment_revision", 0, dev.ratchet.json.JsonInt.MAX_SAFE),
        f.integer("expires_at_proposal", 1, dev.ratchet.json.JsonInt.MAX_SAFE),
        f.integer("expires_at_ms", 1, dev.ratchet.json.JsonInt.MAX_SAFE),
        f.text("nonce"));
  }
}
