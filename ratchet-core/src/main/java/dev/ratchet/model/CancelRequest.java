package dev.ratchet.model;

import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.json.Text;
import dev.ratchet.sign.Role;
import dev.ratchet.store.InboxItem;

/**
 * The payload of an operator's signed cancel (SPEC D19, issue 17): binds the task, run and policy
 * (a {@link DecisionBinding} without intent fields) and carries a single-use nonce and the
 * operator's reason. Consumed under the lease at the run's next recovery: with nothing pending the
 * run ends {@code cancelled}; with a write pending it freezes in {@code needs_review} ({@code
 * cancel_requested}) so a reviewer decides.
 */
public record CancelRequest(String operatorId, DecisionBinding binding, String reason, String nonce)
    implements Decision {

  static final String[] KEYS = {
    "operator_id", "task_id", "run_id", "policy_id", "policy_version", "reason", "nonce"
  };

  public CancelRequest {
    // Checked as a parsed one is, so a CLI never signs what a worker would refuse as malformed.
    Text.require("cancel.operator_id", operatorId);
    Text.require("cancel.task_id", binding.taskId());
    Text.require("cancel.run_id", binding.runId());
    Text.require("cancel.policy_id", binding.policyId());
    Text.require("cancel.policy_version", binding.policyVersion());
    Text.require("cancel.reason", reason);
    Text.require("cancel.nonce", nonce);
    if (binding.actionId() != null || binding.intentDigest() != null) {
      throw dev.ratchet.error.RatchetException.contract(
          "cancel: binds the run only, never a pending write");
    }
  }

  /** A cancel of {@code s} of {@code task}. */
  public static CancelRequest of(
      String operatorId, RunState s, TaskSpec task, String reason, String nonce) {
    return new CancelRequest(operatorId, DecisionBinding.ofRun(s, task), reason, nonce);
  }

  @Override
  public String signerId() {
    return operatorId;
  }

  @Override
  public Role role() {
    return Role.OPERATOR;
  }

  @Override
  public InboxItem.Kind inboxKind() {
    return InboxItem.Kind.CANCEL;
  }

  @Override
  public JsonObject toJson() {
    JsonObject.Builder b = JsonObject.builder().put("operator_id", operatorId);
    binding.writeRun(b);
    return b.put("reason", reason).put("nonce", nonce).build();
  }

  public static CancelRequest fromJson(JsonValue v, String path) {
    Fields f = Fields.exact(v, path, KEYS);
    return new CancelRequest(
        f.text("operator_id"),
        DecisionBinding.read(f, DecisionBinding.Intent.NONE, null),
        f.text("reason"),
        f.text("nonce"));
  }
}
