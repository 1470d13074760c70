package dev.ratchet.model;

import java.util.List;

/**
 * The run state machine as data (SPEC §1, §8, D13). The runtime changes phase only by requesting a
 * row of {@link #TABLE} by name; the commit checks the row against the committed phase, and the
 * trace outcome recorded with it is the row's. {@code docs/state-machine.md} is generated from this
 * table and golden-checked, and a test fails if any row is never exercised.
 */
public final class PhaseTransitions {
  /**
   * One allowed change of phase, requested by name by the runtime ({@code op.transition(...)}), and
   * the trace outcome that records it.
   */
  public enum Transition {
    COMPLETE(
        Phase.RUNNING, Phase.COMPLETED, TraceOutcome.COMPLETED, "finish with current verification"),
    CANCEL(Phase.RUNNING, Phase.CANCELLED, TraceOutcome.CANCELLED, "cancel"),
    PROPOSAL_BUDGET(
        Phase.RUNNING,
        Phase.FAILED,
        TraceOutcome.PROPOSAL_BUDGET_EXHAUSTED,
        "proposal budget spent"),
    STEP_BUDGET(
        Phase.RUNNING, Phase.FAILED, TraceOutcome.STEP_BUDGET_EXHAUSTED, "step budget spent"),
    WALL_TIME(Phase.RUNNING, Phase.FAILED, TraceOutcome.WALL_TIME_EXHAUSTED, "wall time spent"),
    COST_BUDGET(
        Phase.RUNNING, Phase.FAILED, TraceOutcome.COST_BUDGET_EXHAUSTED, "cost budget spent"),
    FREEZE_CONFLICT(
        Phase.RUNNING,
        Phase.NEEDS_REVIEW,
        TraceOutcome.IDEMPOTENCY_CONFLICT,
        "same key, different intent"),
    FREEZE_UNBOUND(
        Phase.RUNNING,
        Phase.NEEDS_REVIEW,
        TraceOutcome.RECEIPT_UNBOUND,
        "receipt lacks a required binding"),
    FREEZE_DRIFT(
        Phase.RUNNING,
        Phase.NEEDS_REVIEW,
        TraceOutcome.ENVIRONMENT_DRIFT,
        "change the pending write does not explain"),
    OPERATOR_CANCEL(
        Phase.RUNNING,
        Phase.CANCELLED,
        TraceOutcome.OPERATOR_CANCELLED,
        "signed operator cancel, nothing pending"),
    FREEZE_CANCEL(
        Phase.RUNNING,
        Phase.NEEDS_REVIEW,
        TraceOutcome.CANCEL_REQUESTED,
        "signed operator cancel with a write pending"),
    FREEZE_UNCERTAIN(
        Phase.RUNNING,
        Phase.NEEDS_REVIEW,
        TraceOutcome.UNCERTAIN_EFFECT,
        "an unreceipted write started without a committed result"),
    PERMANENT_REFUSAL(
        Phase.RUNNING,
        Phase.FAILED,
        TraceOutcome.PERMANENTLY_REFUSED,
        "a policy refusal the driver cannot get past"),
    PAUSE(
        Phase.RUNNING,
        Phase.PAUSED,
        TraceOutcome.OPERATOR_PAUSED,
        "signed operator pause, at a step boundary with nothing pending"),
    UNPAUSE(Phase.PAUSED, Phase.RUNNING, TraceOutcome.OPERATOR_UNPAUSED, "signed operator unpause"),
    PAUSED_CANCEL(
        Phase.PAUSED,
        Phase.CANCELLED,
        TraceOutcome.OPERATOR_CANCELLED,
        "signed operator cancel of a paused run (nothing is pending)"),
    REPLAN(Phase.NEEDS_REVIEW, Phase.RUNNING, TraceOutcome.REVIEW_REPLANNED, "signed replan"),
    ABORT(Phase.NEEDS_REVIEW, Phase.FAILED, TraceOutcome.REVIEW_ABORTED, "signed abort");

    private final Phase from;
    private final Phase to;
    private final TraceOutcome outcome;
    private final String why;

    Transition(Phase from, Phase to, TraceOutcome outcome, String why) {
      this.from = from;
      this.to = to;
      this.outcome = outcome;
      this.why = why;
    }

    public Phase from() {
      return from;
    }

    public Phase to() {
      return to;
    }

    public TraceOutcome outcome() {
      return outcome;
    }

    public String why() {
      return why;
    }
  }

  public static final List<Transition> TABLE = List.of(Transition.values());

  private PhaseTransitions() {}

  /**
   * The role whose signed decision requests {@code t} ({@code operator}, {@code reviewer}), or null
   * for a row the runtime takes on its own evidence.
   */
  public static String signer(Transition t) {
    return switch (t) {
      case OPERATOR_CANCEL, FREEZE_CANCEL, PAUSE, UNPAUSE, PAUSED_CANCEL -> "operator";
      case REPLAN, ABORT -> "reviewer";
      default -> null;
    };
  }

  /**
   * The lifecycle diagram of docs/lifecycle.md (D37): one edge per pair of phases, labelled with
   * the signed decisions that take it (by role) and how many rows the runtime takes on its own.
   */
  public static String lifecycleDiagram() {
    java.util.Map<String, java.util.List<String>> edges = new java.util.LinkedHashMap<>();
    java.util.Map<String, Integer> own = new java.util.HashMap<>();
    for (Transition t : TABLE) {
      String edge = t.from().wireName() + " --> " + t.to().wireName();
      edges.computeIfAbsent(edge, k -> new java.util.ArrayList<>());
      if (signer(t) == null) {
        own.merge(edge, 1, Integer::sum);
      } else {
        edges.get(edge).add(signer(t) + " " + t.outcome().wireName());
      }
    }
    StringBuilder b = new StringBuilder("```mermaid\nstateDiagram-v2\n    [*] --> running\n");
    for (var e : edges.entrySet()) {
      java.util.List<String> label = new java.util.ArrayList<>(e.getValue());
      Integer n = own.get(e.getKey());
      if (n != null) {
        label.add(n + (n == 1 ? " runtime row" : " runtime rows"));
      }
      b.append("    ").append(e.getKey()).append(": ").append(String.join(", ", label));
      b.append('\n');
    }
    return b.append("```\n").toString();
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
          .append(t.outcome().wireName())
          .append('\n');
    }
    b.append("```\n\n| from | to | trace outcome | when |\n|---|---|---|---|\n");
    for (Transition t : TABLE) {
      b.append("| ")
          .append(t.from().wireName())
          .append(" | ")
          .append(t.to().wireName())
          .append(" | `")
          .append(t.outcome().wireName())
          .append("` | ")
          .append(t.why())
          .append(" |\n");
    }
    return b.toString();
  }
}
