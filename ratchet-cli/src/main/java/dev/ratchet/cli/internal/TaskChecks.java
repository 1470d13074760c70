package dev.ratchet.cli.internal;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.TaskSpec;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The whole-task rules every adapter shares, checked when a task file is loaded, before any
 * environment, store or file is created (docs/task-format.md, "Whole-task validation"): the
 * permissions are ones the adapter knows; every plan step's permission is granted and its target is
 * allowlisted; the plan fits the step and proposal budgets. Adapter-specific rules (path rules on
 * targets, files and commands) are {@link dev.ratchet.adapter.AdapterProvider#checkTask}'s. Every
 * refusal is {@code CONTRACT} and names the field and the rule.
 */
final class TaskChecks {
  private TaskChecks() {}

  static void check(TaskSpec task, List<PlanStep> plan, Map<String, ActionSpec> specs) {
    Set<String> known = new TreeSet<>();
    specs.values().forEach(s -> known.add(s.permission()));
    for (String p : new TreeSet<>(task.permissions())) {
      if (!known.contains(p)) {
        throw RatchetException.contract(
            "task.permissions: '"
                + p
                + "' is not a permission of adapter '"
                + task.adapter()
                + "' as configured (known: "
                + known
                + ")");
      }
    }
    for (int i = 0; i < plan.size(); i++) {
      PlanStep step = plan.get(i);
      if (TaskSpec.CONTROL_KINDS.contains(step.kind())) {
        continue;
      }
      ActionSpec spec = specs.get(step.kind());
      if (!task.permissions().contains(spec.permission())) {
        throw RatchetException.contract(
            "plan["
                + i
                + "].kind: '"
                + step.kind()
                + "' needs permission '"
                + spec.permission()
                + "', which task.permissions does not grant");
      }
      String target = spec.target(step.arguments());
      if (!task.targets().contains(target)) {
        throw RatchetException.contract(
            "plan[" + i + "].arguments: target '" + target + "' is not in task.targets");
      }
    }
    Budgets b = task.budgets();
    if (plan.size() > b.maxSteps()) {
      throw RatchetException.contract(
          "plan: "
              + plan.size()
              + " steps exceed task.budgets.max_steps ("
              + b.maxSteps()
              + "): the run would stop before its last step");
    }
    if (plan.size() > b.maxProposals()) {
      throw RatchetException.contract(
          "plan: "
              + plan.size()
              + " steps exceed task.budgets.max_proposals ("
              + b.maxProposals()
              + ")");
    }
  }
}
