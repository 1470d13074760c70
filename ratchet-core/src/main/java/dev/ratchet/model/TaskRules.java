package dev.ratchet.model;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.AdapterProvider;
import dev.ratchet.adapter.TaskOutline;
import dev.ratchet.error.RatchetException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;

/**
 * Whole-task validation (SPEC D31), the library's and therefore every surface's: the task's kinds
 * are the adapter's, its permissions are ones the adapter knows, every plan step's permission is
 * granted and its target allowlisted, the plan fits the step and proposal budgets; then the adapter
 * provider's own rules ({@link AdapterProvider#checkTask}: path forms, files and expected files
 * inside the targets, commands). {@code Ratchet.start} and {@code resume} run it before anything is
 * created; a task file adds its plan. Every refusal is {@code CONTRACT} and names the field and the
 * rule.
 */
public final class TaskRules {
  private TaskRules() {}

  /**
   * Checks {@code task} (and {@code plan}, possibly empty) against the kinds an adapter offers,
   * then against the provider registered for {@code task.adapter} if there is one.
   */
  public static void check(
      TaskSpec task, List<TaskOutline.Step> plan, Collection<ActionSpec> offered) {
    AdapterProvider found = null;
    for (AdapterProvider p : ServiceLoader.load(AdapterProvider.class)) {
      if (p.namespace().equals(task.adapter())) {
        found = p;
      }
    }
    check(task, plan, offered, found);
  }

  /**
   * As {@link #check(TaskSpec, List, Collection)} with the provider given (a host's registry);
   * {@code provider} null: core's rules only.
   */
  public static void check(
      TaskSpec task,
      List<TaskOutline.Step> plan,
      Collection<ActionSpec> offered,
      AdapterProvider provider) {
    Map<String, ActionSpec> specs = new LinkedHashMap<>();
    offered.forEach(s -> specs.put(s.kind(), s));
    for (String kind : task.actionKinds()) {
      if (!specs.containsKey(kind) && !TaskSpec.CONTROL_KINDS.contains(kind)) {
        throw RatchetException.contract(
            "task.action_kinds: adapter '" + task.adapter() + "' offers no kind '" + kind + "'");
      }
    }
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
      TaskOutline.Step step = plan.get(i);
      if (TaskSpec.CONTROL_KINDS.contains(step.kind())) {
        continue;
      }
      ActionSpec spec = specs.get(step.kind());
      if (spec == null) {
        throw RatchetException.contract(
            "plan["
                + i
                + "].kind: adapter '"
                + task.adapter()
                + "' offers no kind '"
                + step.kind()
                + "'");
      }
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
    if (provider != null) {
      provider.checkTask(
          new TaskOutline(task.targets(), task.environment(), task.verifier(), plan));
    }
  }
}
