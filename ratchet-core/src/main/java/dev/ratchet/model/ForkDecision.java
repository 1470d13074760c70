package dev.ratchet.model;

import dev.ratchet.adapter.Observation;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.json.Text;
import dev.ratchet.sign.Role;
import dev.ratchet.store.InboxItem;

/**
 * The payload of an operator's signed fork (SPEC D37, ADR 0130): the source run it is bound to (a
 * {@link DecisionBinding} without intent fields), the source's generation and task digest as the
 * operator saw them, the retained checkpoint the new run starts from ({@code from_generation}, at
 * plan step {@code from_step}), the new run and its task digest, and a fresh observation of the
 * environment, so drift is judged against today's state, not step K's. Applied by {@code
 * Ratchet.fork}, never through an inbox: the source is not running, and the new run's first commit
 * is the one place the fork takes effect (its run id can be created once).
 */
public record ForkDecision(
    String operatorId,
    DecisionBinding binding,
    long sourceGeneration,
    String sourceTaskDigest,
    long fromGeneration,
    long fromStep,
    String newTaskId,
    String newRunId,
    String newTaskDigest,
    String environmentInstanceId,
    long environmentRevision,
    String environmentStateFingerprint,
    String reason,
    String nonce)
    implements Decision {

  static final String WIRE_NAME = "fork";

  static final String[] KEYS = {
    "decision",
    "operator_id",
    "task_id",
    "run_id",
    "policy_id",
    "policy_version",
    "source_generation",
    "source_task_digest",
    "from_generation",
    "from_step",
    "new_task_id",
    "new_run_id",
    "new_task_digest",
    "environment_instance_id",
    "environment_revision",
    "environment_state_fingerprint",
    "reason",
    "nonce"
  };

  public ForkDecision {
    // Checked as a parsed one is, so a CLI never signs what the runtime would refuse as malformed.
    Text.require("fork.operator_id", operatorId);
    Text.require("fork.task_id", binding.taskId());
    Text.require("fork.run_id", binding.runId());
    Text.require("fork.policy_id", binding.policyId());
    Text.require("fork.policy_version", binding.policyVersion());
    if (binding.actionId() != null || binding.intentDigest() != null) {
      throw RatchetException.contract("fork: binds the source run only, never a pending write");
    }
    if (sourceGeneration < 1 || fromGeneration < 1 || fromGeneration > sourceGeneration) {
      throw RatchetException.contract(
          "fork.from_generation: must be from 1 to the source's generation " + sourceGeneration);
    }
    if (fromStep < 0) {
      throw RatchetException.contract("fork.from_step: must be >= 0");
    }
    Text.requireHex64("fork.source_task_digest", sourceTaskDigest);
    Text.require("fork.new_task_id", newTaskId);
    Text.require("fork.new_run_id", newRunId);
    Text.requireHex64("fork.new_task_digest", newTaskDigest);
    Text.require("fork.environment_instance_id", environmentInstanceId);
    if (environmentRevision < 0) {
      throw RatchetException.contract("fork.environment_revision: must be >= 0");
    }
    Text.requireHex64("fork.environment_state_fingerprint", environmentStateFingerprint);
    Text.require("fork.reason", reason);
    Text.require("fork.nonce", nonce);
    if (newRunId.equals(binding.runId())) {
      throw RatchetException.contract("fork.new_run_id: must differ from the source run's id");
    }
  }

  /**
   * A fork of {@code source} (at its current {@code sourceGeneration}, run by {@code sourceTask})
   * from the retained checkpoint {@code fromGeneration} whose plan cursor is {@code fromStep}, into
   * run {@code newRunId} of {@code newTask}, bound to the live observation {@code live}.
   */
  public static ForkDecision of(
      String operatorId,
      RunState source,
      TaskSpec sourceTask,
      long sourceGeneration,
      long fromGeneration,
      long fromStep,
      TaskSpec newTask,
      String newRunId,
      Observation live,
      String reason,
      String nonce) {
    return new ForkDecision(
        operatorId,
        DecisionBinding.ofRun(source, sourceTask),
        sourceGeneration,
        sourceTask.fingerprint(),
        fromGeneration,
        fromStep,
        newTask.taskId(),
        newRunId,
        newTask.fingerprint(),
        live.instanceId(),
        live.revision(),
        live.stateFingerprint(),
        reason,
        nonce);
  }

  /** The run states a fork may start from: terminal, paused or frozen (D37). */
  public static boolean forkable(Phase p) {
    return p.terminal() || p == Phase.PAUSED || p == Phase.NEEDS_REVIEW;
  }

  /** True when {@code payload} names a fork. */
  static boolean isFork(JsonObject payload) {
    return payload.get("decision").orElse(null) instanceof JsonString d
        && d.value().equals(WIRE_NAME);
  }

  /** Whether {@code live} is the environment the operator signed for. */
  public boolean observed(Observation live) {
    return live.instanceId().equals(environmentInstanceId)
        && live.revision() == environmentRevision
        && live.stateFingerprint().equals(environmentStateFingerprint);
  }

  @Override
  public String signerId() {
    return operatorId;
  }

  @Override
  public Role role() {
    return Role.OPERATOR;
  }

  /** A fork is applied by {@code Ratchet.fork}; no inbox carries it. */
  @Override
  public InboxItem.Kind inboxKind() {
    throw RatchetException.contract(
        "fork: is applied with Ratchet.fork (it creates a new run), never delivered to an inbox");
  }

  @Override
  public JsonObject toJson() {
    JsonObject.Builder b =
        JsonObject.builder().put("decision", WIRE_NAME).put("operator_id", operatorId);
    binding.writeRun(b);
    return b.put("source_generation", sourceGeneration)
        .put("source_task_digest", sourceTaskDigest)
        .put("from_generation", fromGeneration)
        .put("from_step", fromStep)
        .put("new_task_id", newTaskId)
        .put("new_run_id", newRunId)
        .put("new_task_digest", newTaskDigest)
        .put("environment_instance_id", environmentInstanceId)
        .put("environment_revision", environmentRevision)
        .put("environment_state_fingerprint", environmentStateFingerprint)
        .put("reason", reason)
        .put("nonce", nonce)
        .build();
  }

  public static ForkDecision fromJson(JsonValue v, String path) {
    Fields f = Fields.exact(v, path, KEYS);
    f.oneOf("decision", java.util.Set.of(WIRE_NAME));
    return new ForkDecision(
        f.text("operator_id"),
        DecisionBinding.read(f, DecisionBinding.Intent.NONE, null),
        f.integer("source_generation", 1, Long.MAX_VALUE),
        f.hex64("source_task_digest"),
        f.integer("from_generation", 1, Long.MAX_VALUE),
        f.integer("from_step", 0, Long.MAX_VALUE),
        f.text("new_task_id"),
        f.text("new_run_id"),
        f.hex64("new_task_digest"),
        f.text("environment_instance_id"),
        f.integer("environment_revision", 0, Long.MAX_VALUE),
        f.hex64("environment_state_fingerprint"),
        f.text("reason"),
        f.text("nonce"));
  }
}
