package dev.ratchet.model;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.json.Text;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A fixed, versioned task and its policy, supplied from outside at start and at every recovery
 * (SPEC §1). Its fingerprint is signed into every checkpoint, so any change to the task or the
 * policy makes older checkpoints unrestorable.
 *
 * @param adapter the namespace of the adapter the task runs against
 * @param permissions permissions granted to the run
 * @param actionKinds adapter action kinds the run may propose (finish and cancel are always known)
 * @param targets allowlisted targets: workspace paths, hosts, commands, business objects
 * @param approvalRequired action kinds that need a signed approval
 * @param environment adapter-specific description of the initial environment
 * @param verifier adapter-specific expectations the verifier checks
 */
public record TaskSpec(
    String taskId,
    String taskVersion,
    String policyId,
    String policyVersion,
    String adapter,
    Set<String> permissions,
    Set<String> actionKinds,
    Set<String> targets,
    Set<String> approvalRequired,
    Budgets budgets,
    JsonObject environment,
    JsonObject verifier) {

  public static final long SCHEMA_VERSION = 1;
  public static final Set<String> CONTROL_KINDS = Set.of("finish", "cancel");

  public TaskSpec {
    Text.require("task_id", taskId);
    Text.require("task_version", taskVersion);
    Text.require("policy_id", policyId);
    Text.require("policy_version", policyVersion);
    Text.require("adapter", adapter);
    permissions = sortedCopy(permissions);
    actionKinds = sortedCopy(actionKinds);
    targets = sortedCopy(targets);
    approvalRequired = sortedCopy(approvalRequired);
    Objects.requireNonNull(budgets, "budgets");
    Objects.requireNonNull(environment, "environment");
    Objects.requireNonNull(verifier, "verifier");
    for (String k : approvalRequired) {
      if (!actionKinds.contains(k) && !CONTROL_KINDS.contains(k)) {
        throw dev.ratchet.error.RatchetException.contract(
            "approval_required: '" + k + "' is not one of action_kinds or finish/cancel");
      }
    }
  }

  private static Set<String> sortedCopy(Set<String> s) {
    return java.util.Collections.unmodifiableSortedSet(new TreeSet<>(s));
  }

  public boolean requiresApproval(String kind) {
    return approvalRequired.contains(kind);
  }

  public JsonObject toJson() {
    return JsonObject.builder()
        .put("schema_version", SCHEMA_VERSION)
        .put("task_id", taskId)
        .put("task_version", taskVersion)
        .put("policy_id", policyId)
        .put("policy_version", policyVersion)
        .put("adapter", adapter)
        .put("permissions", texts(permissions))
        .put("action_kinds", texts(actionKinds))
        .put("targets", texts(targets))
        .put("approval_required", texts(approvalRequired))
        .put("budgets", budgets.toJson())
        .put("environment", environment)
        .put("verifier", verifier)
        .build();
  }

  /** SHA-256 of the canonical task: covers every field, including budgets and policy. */
  public String fingerprint() {
    return Canonical.sha256Hex(toJson());
  }

  public static TaskSpec fromJson(JsonValue v, String path) {
    Fields f =
        Fields.exact(
            v,
            path,
            "schema_version",
            "task_id",
            "task_version",
            "policy_id",
            "policy_version",
            "adapter",
            "permissions",
            "action_kinds",
            "targets",
            "approval_required",
            "budgets",
            "environment",
            "verifier");
    f.integer("schema_version", SCHEMA_VERSION, SCHEMA_VERSION);
    return new TaskSpec(
        f.text("task_id"),
        f.text("task_version"),
        f.text("policy_id"),
        f.text("policy_version"),
        f.text("adapter"),
        Set.copyOf(f.uniqueTexts("permissions", null, true)),
        Set.copyOf(f.uniqueTexts("action_kinds", null, false)),
        Set.copyOf(f.uniqueTexts("targets", null, false)),
        Set.copyOf(f.uniqueTexts("approval_required", null, true)),
        Budgets.fromJson(f.raw("budgets"), f.path("budgets")),
        f.obj("environment"),
        f.obj("verifier"));
  }

  private static JsonArray texts(Set<String> s) {
    return new JsonArray(s.stream().<JsonValue>map(JsonString::new).toList());
  }

  /** Convenience for tests and examples. */
  public static List<String> list(String... items) {
    return List.of(items);
  }
}
