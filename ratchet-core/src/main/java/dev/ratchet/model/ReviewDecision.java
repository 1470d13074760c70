package dev.ratchet.model;

import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.sign.Role;
import dev.ratchet.store.InboxItem;
import java.util.Set;

/**
 * The payload of a signed reviewer decision on one open review case (SPEC §8, D13). It binds (its
 * {@link DecisionBinding}, the digest named {@code pending_intent_digest}) the task, run, policy
 * and the case's pending write, everything else the case froze (both digests, the full receipt
 * fingerprint) and the environment revision, and carries a single-use nonce. The fields about the
 * pending write are null for a drift case without one.
 */
public record ReviewDecision(
    String reviewerId,
    DecisionBinding binding,
    String caseId,
    String observedIntentDigest,
    String observedReceiptFingerprint,
    String environmentInstanceId,
    long environmentRevision,
    String decision,
    String nonce)
    implements Decision {

  public static final String REPLAN = "replan";
  public static final String ABORT = "abort";

  /** The name under which the binding's intent digest is signed. */
  public static final String DIGEST_KEY = "pending_intent_digest";

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
    return new ReviewDecision(
        reviewerId,
        DecisionBinding.of(s, task, c.pending()),
        c.caseId(),
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
    DIGEST_KEY,
    "observed_intent_digest",
    "observed_receipt_fingerprint",
    "environment_instance_id",
    "environment_revision",
    "decision",
    "nonce"
  };

  public String pendingIntentDigest() {
    return binding.intentDigest();
  }

  @Override
  public String signerId() {
    return reviewerId;
  }

  @Override
  public Role role() {
    return Role.REVIEWER;
  }

  @Override
  public InboxItem.Kind inboxKind() {
    return InboxItem.Kind.REVIEW_DECISION;
  }

  @Override
  public JsonObject toJson() {
    JsonObject.Builder b = JsonObject.builder().put("reviewer_id", reviewerId);
    binding.writeRun(b);
    b.put("case_id", caseId);
    binding.writeIntent(b, DIGEST_KEY);
    return b.put("observed_intent_digest", opt(observedIntentDigest))
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
        DecisionBinding.read(f, DecisionBinding.Intent.OPTIONAL, DIGEST_KEY),
        f.text("case_id"),
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
