package dev.ratchet.model;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.json.Text;
import dev.ratchet.sign.Role;
import dev.ratchet.store.InboxItem;

/**
 * The payload of an operator's signed pause or unpause (SPEC D37): which of the two, the run it is
 * bound to (a {@link DecisionBinding} without intent fields), the operator's reason and a
 * single-use nonce. The decision is signed into the payload and names its inbox kind, so a pause
 * can never be delivered or consumed as an unpause (or the reverse). Consumed under the lease at
 * the run's next step boundary with nothing pending.
 */
public record PauseDecision(
    Kind decision, String operatorId, DecisionBinding binding, String reason, String nonce)
    implements Decision {

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

    static Kind fromWireName(String s, String path) {
      for (Kind k : values()) {
        if (k.wireName.equals(s)) {
          return k;
        }
      }
      throw RatchetException.contract(path + ": must be 'pause' or 'unpause', not '" + s + "'");
    }
  }

  static final String[] KEYS = {
    "decision", "operator_id", "task_id", "run_id", "policy_id", "policy_version", "reason", "nonce"
  };

  public PauseDecision {
    if (decision == null) {
      throw RatchetException.contract("pause.decision: is required ('pause' or 'unpause')");
    }
    // Checked as a parsed one is, so a CLI never signs what a worker would refuse as malformed.
    Text.require("pause.operator_id", operatorId);
    Text.require("pause.task_id", binding.taskId());
    Text.require("pause.run_id", binding.runId());
    Text.require("pause.policy_id", binding.policyId());
    Text.require("pause.policy_version", binding.policyVersion());
    Text.require("pause.reason", reason);
    Text.require("pause.nonce", nonce);
    if (binding.actionId() != null || binding.intentDigest() != null) {
      throw RatchetException.contract("pause: binds the run only, never a pending write");
    }
  }

  /** A pause or unpause of {@code s} of {@code task}. */
  public static PauseDecision of(
      Kind decision, String operatorId, RunState s, TaskSpec task, String reason, String nonce) {
    return new PauseDecision(decision, operatorId, DecisionBinding.ofRun(s, task), reason, nonce);
  }

  /** True when {@code payload} names a pause or unpause decision. */
  static boolean isPause(JsonObject payload) {
    return payload.get("decision").orElse(null) instanceof JsonString d
        && (d.value().equals(Kind.PAUSE.wireName) || d.value().equals(Kind.UNPAUSE.wireName));
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
    return decision.inboxKind;
  }

  @Override
  public JsonObject toJson() {
    JsonObject.Builder b =
        JsonObject.builder().put("decision", decision.wireName).put("operator_id", operatorId);
    binding.writeRun(b);
    return b.put("reason", reason).put("nonce", nonce).build();
  }

  public static PauseDecision fromJson(JsonValue v, String path) {
    Fields f = Fields.exact(v, path, KEYS);
    return new PauseDecision(
        Kind.fromWireName(f.text("decision"), path + ".decision"),
        f.text("operator_id"),
        DecisionBinding.read(f, DecisionBinding.Intent.NONE, null),
        f.text("reason"),
        f.text("nonce"));
  }
}
