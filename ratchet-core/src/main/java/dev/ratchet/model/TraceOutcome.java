package dev.ratchet.model;

import java.util.Optional;

/**
 * Every outcome a trace event records (reference-behaviour §1.13). The runtime names outcomes only
 * through these constants; the trace stores {@link #wireName()}, so stored traces are unchanged.
 */
public enum TraceOutcome {
  STARTED("started"),
  COST_REPORTED("cost_reported"),
  ACCEPTED_PENDING("accepted_pending"),
  PERMISSION_DENIED("permission_denied"),
  /**
   * A proposal refused for its approval (a presented key without valid approval). Traces written
   * before issue 39 also used it for an ordinary wait, which is now {@link #AWAITING_APPROVAL}.
   */
  APPROVAL_REJECTED("approval_rejected"),
  /** A pending write holds no valid approval yet and waits for one: nothing was refused. */
  AWAITING_APPROVAL("awaiting_approval"),
  APPROVAL_CONSUMED("approval_consumed"),
  APPROVAL_REFRESHED("approval_refreshed"),
  STALE_OBSERVATION("stale_observation"),
  CONTRACT_REJECTED("contract_rejected"),
  EXECUTED("executed"),
  REPLAYED("replayed"),
  RECONCILED("reconciled"),
  EXECUTION_ERROR("execution_error"),
  COMPLETED("completed"),
  CANCELLED("cancelled"),
  PROPOSAL_BUDGET_EXHAUSTED("proposal_budget_exhausted"),
  STEP_BUDGET_EXHAUSTED("step_budget_exhausted"),
  WALL_TIME_EXHAUSTED("wall_time_exhausted"),
  COST_BUDGET_EXHAUSTED("cost_budget_exhausted"),
  IDEMPOTENCY_CONFLICT("idempotency_conflict"),
  RECEIPT_UNBOUND("receipt_unbound"),
  ENVIRONMENT_DRIFT("environment_drift"),
  REVIEW_REPLANNED("review_replanned"),
  REVIEW_ABORTED("review_aborted"),
  REVIEW_DECISION_REJECTED("review_decision_rejected"),
  CHECKPOINT_RESIGNED("checkpoint_resigned"),
  /** A signed operator cancel ended a run with nothing pending (issue 17). */
  OPERATOR_CANCELLED("operator_cancelled"),
  /** A signed operator cancel froze a run with a pending write for review (issue 17). */
  CANCEL_REQUESTED("cancel_requested"),
  /** Inbox cancels refused (untrusted, bad signature, wrong binding, malformed). */
  CANCEL_REJECTED("cancel_rejected"),
  /** An operator's signed pause stopped the run at a step boundary (D37). */
  OPERATOR_PAUSED("operator_paused"),
  /** An operator's signed unpause made a paused run runnable again (D37). */
  OPERATOR_UNPAUSED("operator_unpaused"),
  /** A run's first commit as a fork of another run (D37): lineage and inherited evidence. */
  FORKED("forked"),
  /** Pause or unpause items that failed authentication or binding, consumed once (D37). */
  PAUSE_REJECTED("pause_rejected"),
  /** An operator's signed migration moved the run to a new task version (D37, ADR 0130). */
  TASK_MIGRATED("task_migrated"),
  /** Migration items refused (authentication, binding, state or the widening rule), once. */
  MIGRATION_REJECTED("migration_rejected"),
  /** An approver's signed rejection dropped an unapproved pending write (ADR 0072). */
  INTENT_REJECTED("intent_rejected"),
  /** A driver withdrew an unapproved pending write, e.g. its approval expired (ADR 0072). */
  INTENT_WITHDRAWN("intent_withdrawn"),
  /** The driver cannot get past a policy refusal; the run ends failed (ADR 0050). */
  PERMANENTLY_REFUSED("permanently_refused"),
  /** Key material was found in evidence and replaced (SPEC D27). */
  REDACTED("redacted"),
  /** A command ran outside the sandbox under the operator's explicit opt-out (SPEC D27). */
  UNSANDBOXED_COMMAND("unsandboxed_command"),
  /** An unreceipted write's {@code effect_started} mark, committed before it runs (D23). */
  EFFECT_STARTED("effect_started"),
  /** Recovery found an unreceipted write started without a committed result (D23). */
  UNCERTAIN_EFFECT("uncertain_effect");

  private final String wireName;

  TraceOutcome(String wireName) {
    this.wireName = wireName;
  }

  /** The wire name, so text that names an outcome reads as the trace stores it. */
  @Override
  public String toString() {
    return wireName;
  }

  /** The snake_case name the trace stores. */
  public String wireName() {
    return wireName;
  }

  /** The outcome a stored trace event names, if it is one of these. */
  public static Optional<TraceOutcome> fromWireName(String s) {
    for (TraceOutcome o : values()) {
      if (o.wireName.equals(s)) {
        return Optional.of(o);
      }
    }
    return Optional.empty();
  }
}
