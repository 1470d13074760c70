package dev.ratchet.model;

import dev.ratchet.seam.CrashPoint;
import java.util.List;

/**
 * The pending-write lifecycle as data (SPEC §7, D9, D10): the second table of {@code
 * docs/state-machine.md}, beside {@link PhaseTransitions}. Every crash window ({@link CrashPoint})
 * is the window of a row; the runtime reaches a window only through its row ({@code
 * engine.reached(Step.X)}), a test fails if a row with a trace outcome is never taken, and the
 * crash matrix fails if a window is never injected. A completed write's receipt rides on the run's
 * next commit (D22): the {@code carry} and {@code carried} rows are that commit's windows.
 */
public final class WriteLifecycle {
  /** Where a write stands. */
  public enum Stage {
    NO_WRITE("no_write"),
    INTENT_COMMITTED("intent_committed"),
    APPROVAL_COMMITTED("approval_committed"),
    ADAPTER_CALLED("adapter_called"),
    EFFECT_STARTED("effect_started"),
    RECEIPT_HELD("receipt_held"),
    RECEIPT_CARRIED("receipt_carried"),
    RECEIPT_COMMITTED("receipt_committed"),
    FROZEN("frozen"),
    ANY_COMMIT("any_commit");

    private final String wireName;

    Stage(String wireName) {
      this.wireName = wireName;
    }

    public String wireName() {
      return wireName;
    }
  }

  /** One step of a write, the trace outcome recording it (or none) and the window after it. */
  public enum Step {
    BEGIN(Stage.NO_WRITE, Stage.NO_WRITE, null, CrashPoint.BEFORE_PROPOSAL, "a proposal starts"),
    PROPOSE(
        Stage.NO_WRITE,
        Stage.INTENT_COMMITTED,
        TraceOutcome.ACCEPTED_PENDING,
        CrashPoint.AFTER_INTENT_COMMIT,
        "intent and minted key durable before any effect"),
    APPROVE(
        Stage.INTENT_COMMITTED,
        Stage.APPROVAL_COMMITTED,
        TraceOutcome.APPROVAL_CONSUMED,
        CrashPoint.AFTER_APPROVAL_COMMIT,
        "an inbox approval is consumed in its own commit"),
    REFRESH(
        Stage.APPROVAL_COMMITTED,
        Stage.APPROVAL_COMMITTED,
        TraceOutcome.APPROVAL_REFRESHED,
        CrashPoint.AFTER_APPROVAL_COMMIT,
        "expired evidence sealed, a fresh approval consumed"),
    AWAIT_APPROVAL(
        Stage.INTENT_COMMITTED,
        Stage.INTENT_COMMITTED,
        TraceOutcome.AWAITING_APPROVAL,
        null,
        "no valid approval: the intent stays pending"),
    CALL(
        Stage.APPROVAL_COMMITTED,
        Stage.ADAPTER_CALLED,
        null,
        CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT,
        "the adapter executes under the key (no approval needed counts as approved)"),
    START(
        Stage.APPROVAL_COMMITTED,
        Stage.EFFECT_STARTED,
        TraceOutcome.EFFECT_STARTED,
        CrashPoint.AFTER_EFFECT_STARTED_COMMIT,
        "an unreceipted write: the started mark is durable before its effect runs (D23)"),
    RETURN(
        Stage.EFFECT_STARTED,
        Stage.RECEIPT_HELD,
        null,
        CrashPoint.UNRECEIPTED_RESULT_HELD,
        "the unreceipted effect returned; its result commits at once"),
    UNCERTAIN(
        Stage.EFFECT_STARTED,
        Stage.FROZEN,
        TraceOutcome.UNCERTAIN_EFFECT,
        null,
        "started, no committed result: never re-run, frozen for review"),
    RECEIVE(
        Stage.ADAPTER_CALLED,
        Stage.RECEIPT_HELD,
        null,
        CrashPoint.BEFORE_RECEIPT_COMMIT,
        "the receipt is in memory, not yet durable"),
    EXECUTE(
        Stage.RECEIPT_HELD,
        Stage.RECEIPT_CARRIED,
        TraceOutcome.EXECUTED,
        CrashPoint.RECEIPT_ONLY_IN_MEMORY,
        "receipt and state advance ride on the run's next commit (D22); outcome returned"),
    REPLAY(
        Stage.RECEIPT_HELD,
        Stage.RECEIPT_CARRIED,
        TraceOutcome.REPLAYED,
        CrashPoint.RECEIPT_ONLY_IN_MEMORY,
        "the adapter answered from its receipt; it rides on the next commit"),
    RECONCILE(
        Stage.INTENT_COMMITTED,
        Stage.RECEIPT_CARRIED,
        TraceOutcome.RECONCILED,
        CrashPoint.RECEIPT_ONLY_IN_MEMORY,
        "a same-intent receipt explains the live state; it rides on the next commit"),
    CARRY(
        Stage.RECEIPT_CARRIED,
        Stage.RECEIPT_CARRIED,
        null,
        CrashPoint.INSIDE_CARRYING_COMMIT,
        "the next commit (an intent, a read, finish, a flush before the lease is released) is"
            + " sealed with the receipt; an unreceipted effect's result (D23) or a write that"
            + " ends the run commits at once"),
    CARRIED(
        Stage.RECEIPT_CARRIED,
        Stage.RECEIPT_COMMITTED,
        null,
        CrashPoint.AFTER_RECEIPT_COMMIT,
        "receipt and state advance durable with the commit that carried them"),
    STALE(
        Stage.INTENT_COMMITTED,
        Stage.NO_WRITE,
        TraceOutcome.STALE_OBSERVATION,
        null,
        "no receipt and the pre-state no longer holds: discarded"),
    REJECT(
        Stage.INTENT_COMMITTED,
        Stage.NO_WRITE,
        TraceOutcome.INTENT_REJECTED,
        null,
        "an approver's signed rejection drops the unapproved write (ADR 0072)"),
    WITHDRAW(
        Stage.INTENT_COMMITTED,
        Stage.NO_WRITE,
        TraceOutcome.INTENT_WITHDRAWN,
        null,
        "the driver withdraws the unapproved write, e.g. its approval expired (ADR 0072)"),
    CONFLICT(
        Stage.ADAPTER_CALLED,
        Stage.FROZEN,
        TraceOutcome.IDEMPOTENCY_CONFLICT,
        null,
        "a receipt under the key with another intent"),
    UNBOUND(
        Stage.INTENT_COMMITTED,
        Stage.FROZEN,
        TraceOutcome.RECEIPT_UNBOUND,
        null,
        "the receipt lacks a required binding"),
    DRIFT(
        Stage.INTENT_COMMITTED,
        Stage.FROZEN,
        TraceOutcome.ENVIRONMENT_DRIFT,
        null,
        "a change the pending write does not explain"),
    SPLIT_COMMIT(
        Stage.ANY_COMMIT,
        Stage.ANY_COMMIT,
        null,
        CrashPoint.STORE_BETWEEN_CONTENT_AND_MARK,
        "inside a split store's commit: content written, mark not yet advanced"),
    BATCH_UNSENT(
        Stage.ANY_COMMIT,
        Stage.ANY_COMMIT,
        null,
        CrashPoint.STORE_BEFORE_BATCHED_COMMIT,
        "a batched commit (several runs' commits in one call) assembled, not sent"),
    BATCH_RETURNED(
        Stage.ANY_COMMIT,
        Stage.ANY_COMMIT,
        null,
        CrashPoint.STORE_AFTER_BATCHED_COMMIT,
        "a batched commit returned: each winning run durable, none told yet");

    private final Stage from;
    private final Stage to;
    private final TraceOutcome outcome;
    private final CrashPoint window;
    private final String why;

    Step(Stage from, Stage to, TraceOutcome outcome, CrashPoint window, String why) {
      this.from = from;
      this.to = to;
      this.outcome = outcome;
      this.window = window;
      this.why = why;
    }

    public Stage from() {
      return from;
    }

    public Stage to() {
      return to;
    }

    /** The trace outcome recording the step, or null when the step commits nothing itself. */
    public TraceOutcome outcome() {
      return outcome;
    }

    /** The crash window right after the step, or null. */
    public CrashPoint window() {
      return window;
    }

    public String why() {
      return why;
    }
  }

  public static final List<Step> TABLE = List.of(Step.values());

  private WriteLifecycle() {}

  /** The section of docs/state-machine.md generated from the table. */
  public static String markdown() {
    StringBuilder b = new StringBuilder();
    b.append("\n# Pending-write lifecycle\n\n")
        .append("Generated from `dev.ratchet.model.WriteLifecycle.TABLE`. Every crash window is")
        .append(" the window of a row: the runtime reaches a window only through its row, a test")
        .append(
            " fails if a row with a trace outcome is never taken, and the crash matrix fails if")
        .append(" a window is never injected.\n\n| step | from | to | trace outcome | crash window")
        .append(" after | when |\n|---|---|---|---|---|---|\n");
    for (Step s : TABLE) {
      b.append("| ")
          .append(s.name().toLowerCase(java.util.Locale.ROOT))
          .append(" | ")
          .append(s.from().wireName())
          .append(" | ")
          .append(s.to().wireName())
          .append(" | ")
          .append(s.outcome() == null ? "—" : "`" + s.outcome().wireName() + "`")
          .append(" | ")
          .append(s.window() == null ? "—" : "`" + s.window().name() + "`")
          .append(" | ")
          .append(s.why())
          .append(" |\n");
    }
    return b.toString();
  }
}
