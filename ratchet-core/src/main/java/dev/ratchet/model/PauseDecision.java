package dev.ratchet.model;

import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.json.Text;
import dev.ratchet.store.InboxItem;

/**
 * The payload of an operator's signed pause or unpause (SPEC D37): which of the two, the task, run
 * and policy it is bound to, the operator's reason and a single-use nonce. The decision is signed
 * into the payload, so a pause can never be delivered or consumed as an unpause (or the reverse).
 * Consumed under the lease at the run's next step boundary with nothing pending.
 */
public record PauseDecision(
    Kind decision,
    String operatorId,
    String taskId,
    String runId,
    String policyId,
    String policyVersion,
    String reason,
    String nonce) {

  /** Pause or unpause, with the wire name signed into the payload and the inbox kind it uses. */
  public enum Kind {
    PAUSE("pause", InboxItem.Kind.PAUSE),
    UNPAUSE("unpause", InboxItem.Kind.UNPAUSE);

    private final String wireName;
    private final InboxItem.Kind inboxKind;

    Kind(String wireName, InboxItem.Kind inboxKind) {
      this.wireName = wireName;
      this.inboxKind = inboxKind;
    }

    public String wireName() {
      return wireName;
    }

    public InboxItem.Kind inboxKind() {
      return inboxKind;
    }

    static Kind fromWireName(String s, String path) {
      for (Kind k : values()) {
        if (k.wireName.equals(s)) {
          return k;
        }
      }
      throw dev.ratchet.error.RatchetException.contract(
          path + ": must be 'pause' or 'unpause', not '" + s + "'");
    }
  }

  static final String[] KEYS = {
    "decision", "operator_id", "task_id", "run_id", "policy_id", "policy_version", "reason", "nonce"
  };

  public PauseDecision {
    if (decision == null) {
      throw dev.ratchet.error.RatchetException.contract("pause.decision: is required");
    }
    // Checked as a parsed one is, so a CLI never signs what a worker would refuse as malformed.
    Text.require("pause.operator_id", operatorId);
    Text.require("pause.task_id", taskId);
    Text.require("pause.run_id", runId);
    Text.require("pause.policy_id", policyId);
    Text.require("pause.policy_version", policyVersion);
    Text.require("pause.reason", reason);
    Text.require("pause.nonce", nonce);
  }

  public JsonObject toJson() {
    return JsonObject.builder()
        .put("decision", decision.wireName())
        .put("operator_id", operatorId)
        .put("task_id", taskId)
        .put("run_id", runId)
        .put("policy_id", policyId)
        .put("policy_version", policyVersion)
        .put("reason", reason)
        .put("nonce", nonce)
        .build();
  }

  public static PauseDecision fromJson(JsonValue v, String path) {
    Fields f = Fields.exact(v, path, KEYS);
    return new PauseDecision(
        Kind.fromWireName(f.text("decision"), path + ".decision"),
        f.text("operator_id"),
        f.text("task_id"),
        f.text("run_id"),
        f.text("policy_id"),
        f.text("policy_version"),
        f.text("reason"),
        f.text("nonce"));
  }
}
