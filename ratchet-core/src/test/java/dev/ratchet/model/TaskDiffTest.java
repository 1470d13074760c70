package dev.ratchet.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.json.JsonObject;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The widening rule of ADR 0130 as data: what a migration adds must be approval-required, what it
 * removes is always allowed, and budgets, targets and permissions shared by ungated kinds never
 * grow.
 */
class TaskDiffTest {
  private static final Map<String, String> PERMISSION =
      Map.of("read", "fs.read", "write", "fs.write", "send", "net.send");

  private static TaskSpec task(
      Set<String> kinds, Set<String> targets, Set<String> perms, Set<String> gated, long steps) {
    return new TaskSpec(
        "t",
        "1",
        "p",
        "1",
        "ns",
        perms,
        kinds,
        targets,
        gated,
        new Budgets(steps, steps, 1000, 0),
        JsonObject.EMPTY,
        JsonObject.EMPTY);
  }

  private static final TaskSpec OLD =
      task(
          Set.of("read", "write"), Set.of("a"), Set.of("fs.read", "fs.write"), Set.of("write"), 10);

  @Test
  void narrowingIsAlwaysAllowedAndShown() {
    TaskSpec to = task(Set.of("read"), Set.of(), Set.of("fs.read"), Set.of(), 5);
    TaskDiff d = TaskDiff.of(OLD, to);
    assertThat(d.widenings(to, PERMISSION::get)).isEmpty();
    assertThat(d.kindsRemoved()).containsExactly("write");
    assertThat(d.targetsRemoved()).containsExactly("a");
    assertThat(d.lines()).contains("- action_kinds: write", "  budgets.max_steps: 10 -> 5");
  }

  @Test
  void aKindAddedMustBeApprovalRequired() {
    TaskSpec ungated =
        task(
            Set.of("read", "write", "send"),
            Set.of("a"),
            Set.of("fs.read", "fs.write", "net.send"),
            Set.of("write"),
            10);
    TaskSpec gated =
        task(
            Set.of("read", "write", "send"),
            Set.of("a"),
            Set.of("fs.read", "fs.write", "net.send"),
            Set.of("write", "send"),
            10);
    assertThat(TaskDiff.of(OLD, ungated).widenings(ungated, PERMISSION::get))
        .anyMatch(s -> s.startsWith("action_kinds: 'send'"))
        .anyMatch(s -> s.startsWith("permissions: 'net.send'"));
    assertThat(TaskDiff.of(OLD, gated).widenings(gated, PERMISSION::get))
        .as("the permission is used only by the gated kind")
        .isEmpty();
    assertThat(TaskDiff.of(OLD, gated).widenings(gated, null))
        .as("unknown permissions: every ungated kind counts")
        .anyMatch(s -> s.startsWith("permissions: 'net.send'"));
  }

  @Test
  void droppingAnApprovalAddingATargetOrGrowingABudgetNeedsEveryKindGated() {
    TaskSpec dropped = task(OLD.actionKinds(), Set.of("a"), OLD.permissions(), Set.of(), 10);
    assertThat(TaskDiff.of(OLD, dropped).widenings(dropped, PERMISSION::get))
        .anyMatch(s -> s.startsWith("approval_required: 'write' is dropped"));
    TaskSpec target =
        task(OLD.actionKinds(), Set.of("a", "b"), OLD.permissions(), Set.of("write"), 20);
    assertThat(TaskDiff.of(OLD, target).widenings(target, PERMISSION::get))
        .anyMatch(s -> s.startsWith("targets: 'b' is added while [read]"))
        .anyMatch(s -> s.startsWith("budgets.max_steps: grows from 10 to 20"));
    TaskSpec allGated =
        task(OLD.actionKinds(), Set.of("a", "b"), OLD.permissions(), Set.of("read", "write"), 20);
    assertThat(TaskDiff.of(OLD, allGated).widenings(allGated, PERMISSION::get)).isEmpty();
  }

  @Test
  void theTaskIdAdapterAndEnvironmentNeverChange() {
    TaskSpec moved =
        new TaskSpec(
            "t",
            "2",
            "p",
            "1",
            "other",
            OLD.permissions(),
            OLD.actionKinds(),
            OLD.targets(),
            OLD.approvalRequired(),
            OLD.budgets(),
            JsonObject.builder().put("x", 1).build(),
            JsonObject.EMPTY);
    assertThat(TaskDiff.of(OLD, moved).widenings(moved, PERMISSION::get))
        .anyMatch(s -> s.startsWith("adapter:"))
        .anyMatch(s -> s.startsWith("environment:"));
  }
}
