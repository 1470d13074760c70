package dev.ratchet.adapter;

import dev.ratchet.json.JsonObject;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What a provider checks of a whole task before anything is created (docs/task-format.md,
 * "Whole-task validation"): the signed task's targets, environment and verifier, and the plan's
 * steps. The adapter package cannot name {@code model.TaskSpec} (model depends on adapter), so the
 * host passes this outline.
 *
 * @param targets the task's targets
 * @param environment the task's {@code environment} object
 * @param verifier the task's {@code verifier} object
 * @param plan the plan's steps in order
 */
public record TaskOutline(
    Set<String> targets, JsonObject environment, JsonObject verifier, List<Step> plan) {
  public TaskOutline {
    targets = Set.copyOf(targets);
    Objects.requireNonNull(environment, "environment");
    Objects.requireNonNull(verifier, "verifier");
    plan = List.copyOf(plan);
  }

  /** One plan step: its action kind and its arguments. */
  public record Step(String kind, JsonObject arguments) {
    public Step {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(arguments, "arguments");
    }
  }
}
