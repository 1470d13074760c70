package dev.ratchet.model;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.json.Text;
import dev.ratchet.sign.Role;
import dev.ratchet.store.InboxItem;

/**
 * The payload of an operator's signed task migration (SPEC D37, ADR 0130): the run it is bound to
 * (its task, run and current policy), the digests of the task it runs under and of the new one, the
 * new task itself, the {@link TaskDiff difference} the operator saw, the host's whole task file
 * (opaque to core: a CLI's file with its plan; null from a library caller), the reason and a
 * single-use nonce. The worker that applies it recomputes both digests and the difference and
 * refuses any mismatch, so what was shown is what is applied.
 */
public record MigrateDecision(
    String operatorId,
    DecisionBinding binding,
    String fromTaskDigest,
    String toTaskDigest,
    TaskSpec toTask,
    JsonObject difference,
    JsonObject taskFile,
    String reason,
    String nonce)
    implements Decision {

  static final String WIRE = "migrate";

  static final String[] KEYS = {
    "decision",
    "operator_id",
    "task_id",
    "run_id",
    "policy_id",
    "policy_version",
    "from_task_digest",
    "to_task_digest",
    "to_task",
    "difference",
    "task_file",
    "reason",
    "nonce"
  };

  public MigrateDecision {
    // Checked as a parsed one is, so a CLI never signs what a worker would refuse as malformed.
    Text.require("migrate.operator_id", operatorId);
    Text.require("migrate.task_id", binding.taskId());
    Text.require("migrate.run_id", binding.runId());
    Text.require("migrate.policy_id", binding.policyId());
    Text.require("migrate.policy_version", binding.policyVersion());
    Text.requireHex64("migrate.from_task_digest", fromTaskDigest);
    Text.requireHex64("migrate.to_task_digest", toTaskDigest);
    if (toTask == null || !toTask.fingerprint().equals(toTaskDigest)) {
      throw RatchetException.contract("migrate.to_task_digest: is not the digest of to_task");
    }
    if (difference == null) {
      throw RatchetException.contract("migrate.difference: is required");
    }
    Text.require("migrate.reason", reason);
    Text.require("migrate.nonce", nonce);
    if (binding.actionId() != null || binding.intentDigest() != null) {
      throw RatchetException.contract("migrate: binds the run only, never a pending write");
    }
  }

  /**
   * A migration of {@code s}, which runs under {@code from}, to {@code to}; {@code taskFile} is the
   * host's whole task file for {@code to} (or null).
   */
  public static MigrateDecision of(
      String operatorId,
      RunState s,
      TaskSpec from,
      TaskSpec to,
      JsonObject taskFile,
      String reason,
      String nonce) {
    return new MigrateDecision(
        operatorId,
        DecisionBinding.ofRun(s, from),
        from.fingerprint(),
        to.fingerprint(),
        to,
        TaskDiff.of(from, to).toJson(),
        taskFile,
        reason,
        nonce);
  }

  /**
   * The one migration rule every surface applies (D31, D37): refused ({@code CONTRACT}, naming the
   * field and the rule) unless {@code s} waits (paused, frozen in {@code needs_review}, or a
   * pending write waiting for its approval), {@code to} is another version of the same task, and
   * the {@link TaskDiff#widenings widening rule} finds nothing. {@code permissionOf} maps a kind to
   * the permission the adapter declares for it (null: unknown).
   */
  public static TaskDiff check(
      RunState s,
      TaskSpec from,
      TaskSpec to,
      java.util.function.Function<String, String> permissionOf) {
    String waiting = waiting(s, from);
    if (waiting != null) {
      throw RatchetException.contract("run: " + waiting);
    }
    if (from.fingerprint().equals(to.fingerprint())) {
      throw RatchetException.contract(
          "to_task: is the task the run runs under: nothing to migrate");
    }
    TaskDiff diff = TaskDiff.of(from, to);
    java.util.List<String> widened = diff.widenings(to, permissionOf);
    if (!widened.isEmpty()) {
      throw RatchetException.contract(
          "to_task: widens permissions without an approval-required path: "
              + String.join("; ", widened));
    }
    return diff;
  }

  /** Null when {@code s} may be migrated now; else why not. */
  private static String waiting(RunState s, TaskSpec task) {
    switch (s.phase()) {
      case PAUSED, NEEDS_REVIEW:
        return null;
      case RUNNING:
        PendingIntent p = s.pending();
        if (p != null
            && !p.effectStarted()
            && p.approval() == null
            && task.requiresApproval(p.action().kind())) {
          return null;
        }
        return "is running: only a waiting, paused or frozen run is migrated (pause it first:"
            + " 'ratchet pause "
            + s.runId()
            + "', then migrate, then unpause)";
      default:
        return "is " + s.phase().wireName() + ": a finished run is never migrated";
    }
  }

  /** True when {@code payload} names a migration. */
  static boolean isMigrate(JsonObject payload) {
    return payload.get("decision").orElse(null) instanceof JsonString d && d.value().equals(WIRE);
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
    return InboxItem.Kind.MIGRATE;
  }

  @Override
  public JsonObject toJson() {
    JsonObject.Builder b =
        JsonObject.builder().put("decision", WIRE).put("operator_id", operatorId);
    binding.writeRun(b);
    return b.put("from_task_digest", fromTaskDigest)
        .put("to_task_digest", toTaskDigest)
        .put("to_task", toTask.toJson())
        .put("difference", difference)
        .put("task_file", taskFile == null ? JsonNull.INSTANCE : taskFile)
        .put("reason", reason)
        .put("nonce", nonce)
        .build();
  }

  public static MigrateDecision fromJson(JsonValue v, String path) {
    Fields f = Fields.exact(v, path, KEYS);
    if (!WIRE.equals(f.text("decision"))) {
      throw RatchetException.contract(path + ".decision: must be 'migrate'");
    }
    return new MigrateDecision(
        f.text("operator_id"),
        DecisionBinding.read(f, DecisionBinding.Intent.NONE, null),
        f.hex64("from_task_digest"),
        f.hex64("to_task_digest"),
        TaskSpec.fromJson(f.raw("to_task"), f.path("to_task")),
        f.obj("difference"),
        f.isNull("task_file") ? null : f.obj("task_file"),
        f.text("reason"),
        f.text("nonce"));
  }
}
