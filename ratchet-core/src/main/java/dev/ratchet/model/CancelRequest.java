package dev.ratchet.model;

import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.json.Text;

/**
 * The payload of an operator's signed cancel (SPEC D19, issue 17): binds the task, run and policy
 * and carries a single-use nonce and the operator's reason. Consumed under the lease at the run's
 * next recovery: with nothing pending the run ends {@code cancelled}; with a write pending it
 * freezes in {@code needs_review} ({@code cancel_requested}) so a reviewer decides.
 */
public record CancelRequest(
    String operatorId,
    String taskId,
    String runId,
    String policyId,
    String policyVersion,
    String reason,
    String nonce) {

  static final String[] KEYS = {
    "operator_id", "task_id", "run_id", "policy_id", "policy_version", "reason", "nonce"
  };

  public CancelRequest {
    // Checked as a parsed one is, so a CLI never signs what a worker would refuse as malformed.
    Text.require("cancel.operator_id", operatorId);
    Text.require("cancel.task_id", taskId);
    Text.require("cancel.run_id", runId);
    Text.require("cancel.policy_id", policyId);
    Text.require("cancel.policy_version", policyVersion);
    Text.require("cancel.reason", reason);
    Text.require("cancel.nonce", nonce);
  }

  public JsonObject toJson() {
    return JsonObject.builder()
        .put("operator_id", operatorId)
        .put("task_id", taskId)
        .put("run_id", runId)
        .put("policy_id", policyId)
        .put("policy_version", policyVersion)
        .put("reason", reason)
        .put("nonce", nonce)
        .build();
  }

  public static CancelRequest fromJson(JsonValue v, String path) {
    Fields f = Fields.exact(v, path, KEYS);
    return new CancelRequest(
        f.text("operator_id"),
        f.text("task_id"),
        f.text("run_id"),
        f.text("policy_id"),
        f.text("policy_version"),
        f.text("reason"),
        f.text("nonce"));
  }
}
