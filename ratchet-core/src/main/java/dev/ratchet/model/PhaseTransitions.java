package dev.ratchet.model;

import java.util.List;
import java.util.Optional;

/**
 * The run state machine as data (SPEC §1, §8, D13). Every phase change the runtime commits must be
 * a row of {@link #TABLE}, and the trace outcome recorded with it names the row. {@code
 * docs/state-machine.md} is generated from this table and golden-checked, and a test fails if any
 * row is never exercised.
 */
public final class PhaseTransitions {
  /** One allowed change of phase and the trace outcome that records it. */
  public record Transition(Phase from, Phase to, String outcome, String why) {}

  public static final List<Transition> TABLE =
      List.of(
          new Transition(
              Phase.RUNNING, Phase.COMPLETED, "completed", "finish with current verification"),
          new Transition(Phase.RUNNING, Phase.CANCELLED, "cancelled", "cancel"),
          new Transition(
              Phase.RUNNING, Phase.FAILED, "proposal_budget_exhausted", "proposal budget spent"),
          new Transition(Phase.RUNNING, Phase.FAILED, "step_budget_exhausted", "step budget spent"),
          new Transition(Phase.RUNNING, Phase.FAILED, "wall_time_exhausted", "wall time spent"),
          new Transition(Phase.RUNNING, Phase.FAILED, "cost_budget_exhausted", "cost budget spent"),
          new Transition(
              Phase.RUNNING,
              Phase.NEEDS_REVIEW,
              "idempotency_conflict",
              "same key, different intent"),
          new Transition(
              Phase.RUNNING,
              Phase.NEEDS_REVIEW,
              "receipt_unbound",
              "receipt lacks a required binding"),
          new Transition(
              Phase.RUNNING,
              Phase.NEEDS_REVIEW,
              "environment_drift",
              "change the pending write does not explain"),
          new Transition(Phase.NEEDS_REVIEW, Phase.RUNNING, "review_replanned", "signed replan"),
          new Transition(Phase.NEEDS_REVIEW, Phase.FAILED, "review_aborted", "signed abort"));

  private PhaseTransitions() {}

  /** The row for a phase change recorded with {@code outcome}, if the table allows it. */
  public static Optional<Transition> find(Phase from, Phase to, String outcome) {
    return TABLE.stream()
        .filter(t -> t.from() == from && t.to() == to && t.outcome().equals(outcome))
        .findFirst();
  }

  /** The Mermaid state diagram of the table, as written to docs/state-machine.md. */
  public static String markdown() {
    StringBuilder b = new StringBuilder();
    b.append("# Run state machine\n\n")
        .append("Generated from `dev.ratchet.model.PhaseTransitions.TABLE`; a test keeps this file")
        .append(" equal to the table.\n\n```mermaid\nstateDiagram-v2\n")
        .append("    [*] --> running\n");
    for (Transition t : TABLE) {
      b.append("    ")
          .append(t.from().wireName())
          .append(" --> ")
          .append(t.to().wireName())
          .append(": ")
          .append(t.outcome())
          .append('\n');
    }
    b.append("```\n\n| from | to | trace outcome | when |\n|---|---|---|---|\n");
    for (Transition t : TABLE) {
      b.append("| ")
          .append(t.from().wireName())
          .append(" | ")
          .append(t.to().wireName())
          .append(" | `")
          .append(t.outcome())
          .append("` | ")
          .append(t.why())
          .append(" |\n");
    }
    return b.toString();
  }
}
