package dev.ratchet.model;

import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import java.util.Set;

/**
 * The payload of a signed reviewer decision on one open review case (SPEC §8, D13). It binds the
 * task, run, policy, the case and everything the case froze (action, key, both digests, the full
 * receipt fingerprint) and the environment revision, and carries a single-use nonce. The fields
 * about the pending write are null for a drift case without one.
 */
public record ReviewDecision(
    String reviewerId,
    String taskId,
    String runId,
    String policyId,
    String policyVersion,
    String caseId,
    String actionId,
    String idempotencyKey,
    String pendingIntentDigest,
    String observedIntentDigest,
    String observedReceiptFingerprint,
    String environmentInstanceId,
    long environmentRevision,
    String decision,
    String nonce) {

  public static final String REPLAN = "replan";
  public static final String ABORT = "abort";

  /**
   * A decision on {@code s}'s open review case, bound to the case, its pending write and observed
   * receipt, and to the live environment {@code live} the reviewer looked at.
   */
  public static ReviewDecision onCase(
      String reviewerId,
      RunState s,
      TaskSpec task,
      String decision,
      dev.ratchet.adapter.Observation live,
      String nonce) {
    ReviewCase c = s.review();
    if (c == null) {
      throw dev.ratchet.error.RatchetException.contract("review: the run has no open review case");
    }
    PendingIntent p = c.pending();
    return new ReviewDecision(
        reviewerId,
        s.taskId(),
        s.runId(),
        task.policyId(),
        task.policyVersion(),
        c.caseId(),
        p == null ? null : p.action().actionId(),
        p == null ? null : p.key(),
        p == null ? null : p.intentDigest(),
        c.observedReceipt() == null ? null : c.observedReceipt().intentDigest(),
        c.observedReceiptFingerprint(),
        live.instanceId(),
        live.revision(),
        decision,
        nonce);
  }

  static final String[] KEYS = {
    "reviewer_id",
    "task_id",
    "run_id",
    "policy_id",
    "policy_version",
    "case_id",
    "action_id",
    "idempotency_key",
    "pending_intent_digest",
    "observed_intent_digest",
    "observed_receipt_fingerprint",
    "environment_instance_id",
    "environment_revision",
    "decision",
    "nonce"
  };

  public JsonObject toJson() {
    return JsonObject.builder()
        .put("reviewer_id", reviewerId)
        .put("task_id", taskId)
        .put("run_id", runId)
        .put("policy_id", policyId)
        .put("policy_version", policyVersion)
        .put("case_id", caseId)
        .put("action_id", opt(actionId))
        .put("idempotency_key", opt(idempotencyKey))
        .put("pending_intent_digest", opt(pendingIntentDigest))
        .put("observed_intent_digest", opt(observedIntentDigest))
        .put("observed_receipt_fingerprint", opt(observedReceiptFingerprint))
        .put("environment_instance_id", environmentInstanceId)
        .put("environment_revision", environmentRevision)
        .put("decision", decision)
        .put("nonce", nonce)
        .build();
  }

  public static ReviewDecision fromJson(JsonValue v, String path) {
    Fields f = Fields.exact(v, path, KEYS);
    String decision = f.oneOf("decision", Set.of(REPLAN, ABORT));
    return new ReviewDecision(
        f.text("reviewer_id"),
        f.text("task_id"),
        f.text("run_id"),
        f.text("policy_id"),
        f.text("policy_version"),
        f.text("case_id"),
        f.optionalText("action_id"),
        f.optionalText("idempotency_key"),
        f.optionalHex64("pending_intent_digest"),
        f.optionalHex64("observed_intent_digest"),
        f.optionalHex64("observed_receipt_fingerprint"),
        f.text("environment_instance_id"),
        f.integer("environment_revision", 0, dev.ratchet.json.JsonInt.MAX_SAFE),
        decision,
        f.text("nonce"));
  }

  private static JsonValue opt(String s) {
    return s == null ? JsonNull.INSTANCE : new JsonString(s);
  }
}
