package dev.ratchet.model;

import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * What a task migration changes (SPEC D37, ADR 0130): kinds, targets, permissions and approvals
 * added and removed, budgets that change, and the other fields that differ. It is signed into a
 * {@link MigrateDecision} as {@code difference} (the operator sees exactly what they sign) and
 * recomputed by the worker that applies it, which refuses a decision whose signed difference is not
 * the real one. {@link #widenings} is the widening rule, the only one every surface uses.
 */
public record TaskDiff(
    Set<String> kindsAdded,
    Set<String> kindsRemoved,
    Set<String> targetsAdded,
    Set<String> targetsRemoved,
    Set<String> permissionsAdded,
    Set<String> permissionsRemoved,
    Set<String> approvalsAdded,
    Set<String> approvalsRemoved,
    List<BudgetChange> budgets,
    List<String> changed) {

  /** One budget whose cap differs: {@code name} as in the task file, old and new caps. */
  public record BudgetChange(String name, long from, long to) {
    public boolean grows() {
      return to > from;
    }
  }

  public TaskDiff {
    kindsAdded = sorted(kindsAdded);
    kindsRemoved = sorted(kindsRemoved);
    targetsAdded = sorted(targetsAdded);
    targetsRemoved = sorted(targetsRemoved);
    permissionsAdded = sorted(permissionsAdded);
    permissionsRemoved = sorted(permissionsRemoved);
    approvalsAdded = sorted(approvalsAdded);
    approvalsRemoved = sorted(approvalsRemoved);
    budgets = List.copyOf(budgets);
    changed = List.copyOf(changed);
  }

  /** The difference from {@code from} to {@code to}. */
  public static TaskDiff of(TaskSpec from, TaskSpec to) {
    List<BudgetChange> budgets = new ArrayList<>();
    budget(budgets, "max_proposals", from.budgets().maxProposals(), to.budgets().maxProposals());
    budget(budgets, "max_steps", from.budgets().maxSteps(), to.budgets().maxSteps());
    budget(
        budgets, "max_wall_time_ms", from.budgets().maxWallTimeMs(), to.budgets().maxWallTimeMs());
    budget(budgets, "max_cost", from.budgets().maxCost(), to.budgets().maxCost());
    List<String> changed = new ArrayList<>();
    field(changed, "task_id", from.taskId(), to.taskId());
    field(changed, "task_version", from.taskVersion(), to.taskVersion());
    field(changed, "policy_id", from.policyId(), to.policyId());
    field(changed, "policy_version", from.policyVersion(), to.policyVersion());
    field(changed, "adapter", from.adapter(), to.adapter());
    field(changed, "environment", from.environment(), to.environment());
    field(changed, "verifier", from.verifier(), to.verifier());
    return new TaskDiff(
        minus(to.actionKinds(), from.actionKinds()),
        minus(from.actionKinds(), to.actionKinds()),
        minus(to.targets(), from.targets()),
        minus(from.targets(), to.targets()),
        minus(to.permissions(), from.permissions()),
        minus(from.permissions(), to.permissions()),
        minus(to.approvalRequired(), from.approvalRequired()),
        minus(from.approvalRequired(), to.approvalRequired()),
        budgets,
        changed);
  }

  /**
   * The widening rule (ADR 0130): every way {@code to} (this difference's new task) permits more
   * than the old one without a person in the path, one sentence each naming the field; empty when
   * the migration only narrows or keeps. A kind added must be approval-required; an approval may
   * not be dropped from a kind that stays permitted; a target added, or a budget that grows, needs
   * every action kind of the new task approval-required (targets and budgets are shared by all
   * kinds); a permission added needs every kind that uses it ({@code permissionOf}, the adapter's
   * declaration; null when unknown: every kind) approval-required; a changed verifier needs {@code
   * finish} approval-required. The task id, adapter and environment never change: the run is bound
   * to them.
   */
  public List<String> widenings(TaskSpec to, Function<String, String> permissionOf) {
    List<String> out = new ArrayList<>();
    for (String fixed : List.of("task_id", "adapter", "environment")) {
      if (changed.contains(fixed)) {
        out.add(fixed + ": a migration never changes it (the run is bound to it): start a new run");
      }
    }
    for (String k : kindsAdded) {
      if (!to.requiresApproval(k)) {
        out.add("action_kinds: '" + k + "' is added without being in approval_required");
      }
    }
    for (String k : approvalsRemoved) {
      if (to.actionKinds().contains(k) || TaskSpec.CONTROL_KINDS.contains(k)) {
        out.add("approval_required: '" + k + "' is dropped while the kind stays permitted");
      }
    }
    Set<String> ungated = ungated(to, k -> true);
    for (String t : targetsAdded) {
      if (!ungated.isEmpty()) {
        out.add("targets: '" + t + "' is added while " + ungated + " run without approval");
      }
    }
    for (String p : permissionsAdded) {
      Set<String> using = ungated(to, k -> permissionOf == null || p.equals(permissionOf.apply(k)));
      if (!using.isEmpty()) {
        out.add("permissions: '" + p + "' is added while " + using + " run without approval");
      }
    }
    for (BudgetChange b : budgets) {
      if (b.grows() && !ungated.isEmpty()) {
        out.add(
            "budgets."
                + b.name()
                + ": grows from "
                + b.from()
                + " to "
                + b.to()
                + " while "
                + ungated
                + " run without approval");
      }
    }
    if (changed.contains("verifier") && !to.requiresApproval("finish")) {
      out.add("verifier: changes what counts as done while finish runs without approval");
    }
    return out;
  }

  /** The new task's action kinds (not finish/cancel) that {@code uses} and need no approval. */
  private static Set<String> ungated(TaskSpec to, java.util.function.Predicate<String> uses) {
    Set<String> out = new TreeSet<>();
    for (String k : to.actionKinds()) {
      if (!TaskSpec.CONTROL_KINDS.contains(k) && uses.test(k) && !to.requiresApproval(k)) {
        out.add(k);
      }
    }
    return out;
  }

  /** True when nothing differs. */
  public boolean isEmpty() {
    return toJson()
        .equals(
            new TaskDiff(
                    Set.of(), Set.of(), Set.of(), Set.of(), Set.of(), Set.of(), Set.of(), Set.of(),
                    List.of(), List.of())
                .toJson());
  }

  /** The signed form: every field, empty ones included, so the signed bytes are one shape. */
  public JsonObject toJson() {
    List<JsonValue> bs = new ArrayList<>();
    for (BudgetChange b : budgets) {
      bs.add(
          JsonObject.builder()
              .put("name", b.name())
              .put("from", b.from())
              .put("to", b.to())
              .build());
    }
    return JsonObject.builder()
        .put("kinds_added", texts(kindsAdded))
        .put("kinds_removed", texts(kindsRemoved))
        .put("targets_added", texts(targetsAdded))
        .put("targets_removed", texts(targetsRemoved))
        .put("permissions_added", texts(permissionsAdded))
        .put("permissions_removed", texts(permissionsRemoved))
        .put("approvals_added", texts(approvalsAdded))
        .put("approvals_removed", texts(approvalsRemoved))
        .put("budgets", new JsonArray(bs))
        .put("changed", texts(changed))
        .build();
  }

  /** One line per change, for a person to read before signing ({@code +} added, {@code -} gone). */
  public List<String> lines() {
    List<String> out = new ArrayList<>();
    both(out, "action_kinds", kindsAdded, kindsRemoved);
    both(out, "targets", targetsAdded, targetsRemoved);
    both(out, "permissions", permissionsAdded, permissionsRemoved);
    both(out, "approval_required", approvalsAdded, approvalsRemoved);
    for (BudgetChange b : budgets) {
      out.add("  budgets." + b.name() + ": " + b.from() + " -> " + b.to());
    }
    for (String c : changed) {
      if (!List.of("task_version", "policy_id", "policy_version").contains(c)) {
        out.add("  " + c + ": changed");
      }
    }
    return out;
  }

  private static void both(List<String> out, String name, Set<String> added, Set<String> gone) {
    added.forEach(s -> out.add("+ " + name + ": " + s));
    gone.forEach(s -> out.add("- " + name + ": " + s));
  }

  private static void budget(List<BudgetChange> out, String name, long from, long to) {
    if (from != to) {
      out.add(new BudgetChange(name, from, to));
    }
  }

  private static void field(List<String> out, String name, Object from, Object to) {
    if (!from.equals(to)) {
      out.add(name);
    }
  }

  private static Set<String> minus(Set<String> a, Set<String> b) {
    Set<String> out = new TreeSet<>(a);
    out.removeAll(b);
    return out;
  }

  private static Set<String> sorted(Set<String> s) {
    return java.util.Collections.unmodifiableSortedSet(new TreeSet<>(s));
  }

  private static JsonArray texts(java.util.Collection<String> s) {
    return new JsonArray(s.stream().<JsonValue>map(JsonString::new).toList());
  }
}
