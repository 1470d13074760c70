package dev.ratchet.testkit.foundation;

import static dev.ratchet.testkit.foundation.ModelGoldenTest.TASK;
import static dev.ratchet.testkit.foundation.ModelGoldenTest.contract;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.json.Json;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.testkit.Rules;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Task and budget validation (SPEC §1.5): one edit of the golden task of {@link ModelGoldenTest}
 * per row, each refused as {@code CONTRACT} with its path and rule; budgets are bounded and allow
 * no fewer proposals than steps.
 */
class TaskValidationTest {
  static Stream<Arguments> taskRefusals() {
    return Stream.of(
        refusal("blank task_id", t -> t.with("task_id", new JsonString(" ")), "task.task_id"),
        refusal(
            "long policy_id",
            t -> t.with("policy_id", new JsonString("p".repeat(201))),
            "task.policy_id: must be at most 200"),
        refusal(
            "integer task_version",
            t -> t.with("task_version", new JsonInt(1)),
            "task.task_version: must be a string"),
        refusal(
            "no action_kinds",
            t -> t.with("action_kinds", Json.parse("[]")),
            "task.action_kinds: must not be empty"),
        refusal(
            "duplicate permission",
            t -> t.with("permissions", Json.parse("[\"a\",\"a\"]")),
            "task.permissions[1]: duplicate item"),
        refusal(
            "empty target",
            t -> t.with("targets", Json.parse("[\"\"]")),
            "task.targets[0]: must not be empty or blank"),
        refusal(
            "approval for an unknown kind",
            t -> t.with("approval_required", Json.parse("[\"deploy\"]")),
            "approval_required: 'deploy' is not one of action_kinds or finish/cancel"),
        refusal(
            "array environment",
            t -> t.with("environment", Json.parse("[]")),
            "task.environment: must be an object"),
        refusal(
            "unknown field",
            t -> t.with("owner", new JsonString("me")),
            "task: unknown fields [owner]"),
        refusal("no verifier", t -> t.without("verifier"), "task: missing fields [verifier]"));
  }

  private static Arguments refusal(String name, UnaryOperator<JsonObject> edit, String rule) {
    return Arguments.of(name, edit, rule);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("taskRefusals")
  @Rules("R1.5-task")
  void taskFieldsAreValidatedStrictly(String name, UnaryOperator<JsonObject> edit, String rule) {
    contract(() -> TaskSpec.fromJson(edit.apply(TASK.toJson()), "task"), rule);
  }

  @Test
  @Rules("R1.5-task")
  void finishAndCancelMayRequireApproval() {
    JsonObject t = TASK.toJson();
    assertThat(
            TaskSpec.fromJson(
                    t.with("approval_required", Json.parse("[\"finish\",\"cancel\"]")), "t")
                .requiresApproval("finish"))
        .isTrue();
  }

  @Test
  @Rules("R1.5-task")
  void budgetsAreBoundedAndMaxProposalsIsAtLeastMaxSteps() {
    contract(
        () -> new Budgets(10, 0, 1, 0), "budgets.max_steps: must be an integer from 1 to 1000000");
    contract(() -> new Budgets(2_000_000, 1_000_001, 1, 0), "budgets.max_steps");
    contract(() -> new Budgets(5_000_001, 10, 1, 0), "budgets.max_proposals");
    contract(() -> new Budgets(10, 5, 0, 0), "budgets.max_wall_time_ms");
    contract(() -> new Budgets(10, 5, 1, -1), "budgets.max_cost");
    contract(
        () -> new Budgets(4, 5, 1, 0), "budgets.max_proposals: must be at least budgets.max_steps");
    assertThat(new Budgets(5, 5, 1, 0).maxProposals()).isEqualTo(5);
    assertThat(new Budgets(1_000_000, 1_000_000, 1, 0).maxSteps()).isEqualTo(Budgets.MAX_STEPS_CAP);
    JsonObject t = TASK.toJson();
    JsonObject budgets = (JsonObject) t.get("budgets").get();
    contract(
        () ->
            TaskSpec.fromJson(
                t.with("budgets", budgets.with("max_proposals", new JsonInt(99))), "task"),
        "must be at least budgets.max_steps");
    contract(
        () ->
            TaskSpec.fromJson(t.with("budgets", budgets.with("max_steps", new JsonInt(0))), "task"),
        "task.budgets.max_steps: must be an integer from 1 to 1000000");
  }
}
