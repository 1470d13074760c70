package dev.ratchet.model;

import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.json.Text;

/**
 * The payload of an approver's signed rejection (SPEC D19, ADR 0072): refuses exactly one pending
 * write that has not been approved, bound (its {@link DecisionBinding}) to the task, run and
 * policy, the action id, idempotency key and intent digest, with the approver's reason and a
 * single-use nonce. It travels in the inbox as an approver decision (kind {@code APPROVAL}, told
 * apart by {@code "decision": "reject"}); consumed under the lease, it drops the pending intent,
 * which never ran.
 */
public record ApprovalRejection(
    String approverId, DecisionBinding binding, String reason, String nonce)
    implements ApproverDecision {
  public static final String DECISION = "reject";

  static final String[] KEYS = {
    "decision",
    "approver_id",
    "task_id",
    "run_id",
    "policy_id",
    "policy_version",
    "action_id",
    "idempotency_key",
    "intent_digest",
    "reason",
    "nonce"
  };

  public ApprovalRejection {
    // Checked as a parsed one is, so a CLI never signs what a worker would refuse as malformed.
    Text.require("rejection.approver_id", approverId);
    Text.require("rejection.task_id", binding.taskId());
    Text.require("rejection.run_id", binding.runId());
    Text.require("rejection.policy_id", binding.policyId());
    Text.require("rejection.policy_version", binding.policyVersion());
    Text.require("rejection.action_id", binding.actionId());
    Text.require("rejection.idempotency_key", binding.idempotencyKey(), 200);
    Text.require("rejection.intent_digest", binding.intentDigest());
    Text.require("rejection.reason", reason);
    Text.require("rejection.nonce", nonce);
  }

  /** A rejection of {@code s}'s pending write, bound to its action, key and intent digest. */
  public static ApprovalRejection ofPending(
      String approverId, RunState s, TaskSpec task, String reason, String nonce) {
    return new ApprovalRejection(
        approverId, DecisionBinding.ofPending(s, task, "reject"), reason, nonce);
  }

  /** Whether an approver decision's payload is a rejection (an approval has no decision field). */
  public static boolean isRejection(JsonValue payload) {
    return payload instanceof JsonObject o
        && new JsonString(DECISION).equals(o.get("decision").orElse(null));
  }

  @Override
  public JsonObject toJson() {
    JsonObject.Builder b =
        JsonObject.builder().put("decision", DECISION).put("approver_id", approverId);
    binding.writeRun(b);
    binding.writeIntent(b, "intent_digest");
    return b.put("reason", reason).put("nonce", nonce).build();
  }

  public static ApprovalRejection fromJson(JsonValue v, String path) {
    Fields f = Fields.exact(v, path, KEYS);
    if (!DECISION.equals(f.text("decision"))) {
      throw dev.ratchet.error.RatchetException.contract(path + ".decision: must be 'reject'");
    }
    return new ApprovalRejection(
        f.text("approver_id"),
        DecisionBinding.read(f, DecisionBinding.Intent.REQUIRED, "intent_digest"),
        f.text("reason"),
        f.text("nonce"));
  }
}
