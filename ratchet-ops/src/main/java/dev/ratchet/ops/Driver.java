package dev.ratchet.ops;

import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.Action;
import dev.ratchet.model.Phase;
import dev.ratchet.model.RunState;
import dev.ratchet.ops.internal.PlanStep;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.StepOutcome;
import java.util.List;
import java.util.function.Consumer;

/**
 * A deterministic agent that follows a task file's plan: the run's plan cursor says which step is
 * next; a pending write is reconciled first (the crash windows); a frozen run applies a delivered
 * reviewer decision if there is one. It stops when the run ends, freezes, or waits for a person.
 * The runtime makes every decision; the driver only chooses the next call.
 */
public final class Driver {
  /** Why driving stopped. */
  public enum Stop {
    /** The run ended: completed, cancelled or failed. */
    ENDED,
    /** Frozen in needs_review: a reviewer decision is needed. */
    FROZEN,
    /** A pending write waits for a signed approval. */
    AWAITING_APPROVAL,
    /** Asked to stop between steps (a worker draining or losing its lease); still runnable. */
    YIELDED,
    /** Paused by an operator's signed pause: moves again after a signed unpause (D37). */
    PAUSED
  }

  /**
   * Why driving stopped, with the exit code the command returns.
   *
   * @param refused when the run waits after refusing inbox items: what each was and why (kind,
   *     nonce, key id, reason), as the runtime said it; null when nothing was refused (issue 39)
   */
  public record Result(Stop stop, int exitCode, String summary, String refused) {
    public Result(Stop stop, int exitCode, String summary) {
      this(stop, exitCode, summary, null);
    }
  }

  private final Run run;
  private final List<PlanStep> plan;
  private final Consumer<String> progress;
  private final java.util.function.BooleanSupplier stopBetweenSteps;

  /** The plan step at which a stale refusal was met and the run re-observed (ADR 0050). */
  private long staleAt = -1;

  public Driver(Run run, List<PlanStep> plan, Consumer<String> progress) {
    this(run, plan, progress, () -> false);
  }

  /**
   * A driver that returns {@link Stop#YIELDED} once {@code stopBetweenSteps} says so, checked only
   * between steps with no write pending: the step in flight always finishes (D23, ADR 0060).
   */
  public Driver(
      Run run,
      List<PlanStep> plan,
      Consumer<String> progress,
      java.util.function.BooleanSupplier stopBetweenSteps) {
    this.run = run;
    this.plan = List.copyOf(plan);
    this.progress = progress;
    this.stopBetweenSteps = stopBetweenSteps;
  }

  public Result drive() {
    return drive(null);
  }

  /** Drives after a recovery: a write recovery left waiting for approval is not retried. */
  public Result drive(dev.ratchet.outcome.Recovery recovery) {
    if (recovery != null && recovery.outcome() != null) {
      report(run.state(), recovery.outcome());
    }
    if (recovery != null
        && dev.ratchet.outcome.Recovery.Did.AWAITING_APPROVAL == recovery.did()
        && run.state().pending() != null) {
      return awaitingApproval(
          run.state(),
          recovery.why() != null ? recovery.why() : "no valid approval was in the run's inbox",
          recovery.outcome() instanceof StepOutcome.AwaitingApproval w ? refused(w) : null);
    }
    for (int guard = 0; guard < 4 * plan.size() + 16; guard++) {
      RunState s = run.state();
      if (s.phase().terminal()) {
        return ended(s);
      }
      if (s.phase() == Phase.PAUSED) {
        return new Result(
            Stop.PAUSED,
            0,
            "run "
                + s.runId()
                + " is paused by an operator ('ratchet status "
                + s.runId()
                + "' says who and why); 'ratchet unpause "
                + s.runId()
                + "' lets it go on");
      }
      if (s.pending() == null && s.phase() == Phase.RUNNING && stopBetweenSteps.getAsBoolean()) {
        return new Result(Stop.YIELDED, 0, "run " + s.runId() + " stopped between steps");
      }
      try {
        if (s.phase() == Phase.NEEDS_REVIEW) {
          StepOutcome o = run.resolveReview();
          progress.accept(
              "review: "
                  + Views.text(o.result(), "decision")
                  + " by "
                  + Views.text(o.result(), "reviewer_id")
                  + " applied; the old idempotency key is quarantined");
        } else if (s.pending() != null) {
          StepOutcome o = run.reconcile();
          if (o instanceof StepOutcome.AwaitingApproval waiting) {
            return awaitingApproval(run.state(), waiting.why(), refused(waiting));
          }
          report(s, o);
        } else {
          Stepped next = step(s);
          if (next.waiting() != null) {
            return awaitingApproval(run.state(), next.waiting().why(), refused(next.waiting()));
          }
          RatchetException permanent = next.permanent();
          if (permanent != null && run.state().phase() == Phase.RUNNING) {
            run.fail(permanent);
            return failed(run.state(), permanent);
          }
        }
      } catch (RatchetException e) {
        if (e.code() == ErrorCode.APPROVAL && run.state().phase() == Phase.NEEDS_REVIEW) {
          // A decision refused (untrusted signer, wrong binding...) is said as refused.
          boolean refused =
              e instanceof dev.ratchet.error.ApprovalMissing m && !m.reasons().isEmpty();
          return frozen(run.state(), e.getMessage(), refused ? e.getMessage() : null);
        }
        throw e;
      }
    }
    throw new RatchetException(
        ErrorCode.INTERNAL, "the plan driver made no progress on run " + run.state().runId());
  }

  /** What a plan step came to: a wait for approval, a refusal it cannot get past, or neither. */
  private record Stepped(StepOutcome.AwaitingApproval waiting, RatchetException permanent) {
    static final Stepped ON = new Stepped(null, null);

    static Stepped refused(RatchetException e) {
      return e == null ? ON : new Stepped(null, e);
    }
  }

  /**
   * Takes the plan's next step; says whether its write waits for approval, or the refusal the plan
   * cannot get past (ADR 0050); neither when it went through or is worth retrying.
   */
  private Stepped step(RunState s) {
    int cursor = (int) s.cursor();
    if (cursor >= plan.size()) {
      throw new RatchetException(
          ErrorCode.INTERNAL,
          "run " + s.runId() + " is running past the last plan step (cursor " + cursor + ")");
    }
    PlanStep step = plan.get(cursor);
    String actionId = step.actionId(s.usage().proposals() + 1);
    Action action = run.action(actionId, step.kind(), step.arguments());
    Proposal p;
    try {
      p = run.propose(action);
    } catch (RatchetException e) {
      return Stepped.refused(permanentAtPropose(e, cursor));
    }
    if (p.kind() == Proposal.Kind.REPLAYED) {
      report(s, p.replay());
      return Stepped.ON;
    }
    StepOutcome o;
    try {
      o = run.execute(actionId);
    } catch (RatchetException e) {
      // The plan has no step after finish that could change what the verifier sees.
      if (e.code() == ErrorCode.VERIFICATION && "finish".equals(step.kind())) {
        return Stepped.refused(e);
      }
      // The adapter refused the write's precondition and the runtime withdrew the intent: the
      // same rule as a stale refusal at propose (ADR 0050), or every resume meets it again.
      if (e.code() == ErrorCode.STALE_OBSERVATION && run.state().pending() == null) {
        return Stepped.refused(permanentAtPropose(e, cursor));
      }
      throw e;
    }
    if (o instanceof StepOutcome.AwaitingApproval waiting) {
      return new Stepped(waiting, null);
    }
    report(s, o);
    return Stepped.ON;
  }

  /**
   * A fixed plan meets the same policy with the same step every time: a permission or contract
   * refusal is permanent; a stale one is retried once after a fresh observation (ADR 0050).
   */
  private RatchetException permanentAtPropose(RatchetException e, long cursor) {
    if (e.code() == ErrorCode.PERMISSION || e.code() == ErrorCode.CONTRACT) {
      return e;
    }
    if (e.code() == ErrorCode.STALE_OBSERVATION) {
      if (staleAt == cursor) {
        return e;
      }
      staleAt = cursor;
      progress.accept("stale observation at step " + (cursor + 1) + ": re-observing and retrying");
      run.observe();
      return null;
    }
    throw e;
  }

  private Result failed(RunState s, RatchetException why) {
    return new Result(
        Stop.ENDED,
        ErrorCode.TERMINAL.exitCode(),
        "run "
            + s.runId()
            + " failed ("
            + s.stopReason()
            + "): "
            + why.getMessage()
            + ". The plan cannot get past this refusal; the run is terminal ('ratchet trace "
            + s.runId()
            + "' shows it)");
  }

  private void report(RunState before, StepOutcome o) {
    RunState after = run.state();
    String kind = kindOf(o.actionId(), before);
    StringBuilder line =
        new StringBuilder()
            .append("step ")
            .append(Math.min(after.cursor(), plan.size()))
            .append('/')
            .append(plan.size())
            .append("  ")
            .append(kind)
            .append(' ')
            .append(o.actionId())
            .append(": ")
            .append(o.kind().name().toLowerCase(java.util.Locale.ROOT));
    if (o.receipt() != null) {
      line.append(" (receipt ")
          .append(abbreviate(o.receipt().receiptId()))
          .append(", revision ")
          .append(o.receipt().revisionBefore())
          .append(" -> ")
          .append(o.receipt().revisionAfter())
          .append(')');
    }
    if (o.kind() == StepOutcome.Kind.FROZEN && o.review() != null) {
      line.append(" -> needs_review (").append(o.review().reason()).append(')');
    }
    progress.accept(line.toString());
  }

  private String kindOf(String actionId, RunState before) {
    if (before.pending() != null && before.pending().action().actionId().equals(actionId)) {
      return before.pending().action().kind();
    }
    int hash = actionId == null ? -1 : actionId.lastIndexOf('#');
    String stepId = hash < 0 ? actionId : actionId.substring(0, hash);
    return plan.stream()
        .filter(p -> p.id().equals(stepId))
        .map(PlanStep::kind)
        .findFirst()
        .orElse("");
  }

  static String abbreviate(String id) {
    return id.length() <= 12 ? id : id.substring(0, 12) + "...";
  }

  private Result ended(RunState s) {
    String summary = "run " + s.runId() + " " + s.phase().wireName() + " (" + s.stopReason() + ")";
    return new Result(
        Stop.ENDED, s.phase() == Phase.FAILED ? ErrorCode.TERMINAL.exitCode() : 0, summary);
  }

  /** The refused inbox items of a wait for approval, in the runtime's words; null when none. */
  private static String refused(StepOutcome.AwaitingApproval w) {
    return w.refusedReasons().isEmpty() ? null : w.why();
  }

  private Result frozen(RunState s, String why, String refused) {
    return new Result(
        Stop.FROZEN,
        ErrorCode.REVIEW_REQUIRED.exitCode(),
        "run "
            + s.runId()
            + " is frozen in needs_review ("
            + s.stopReason()
            + ", case "
            + s.review().caseId()
            + "): "
            + why
            + ". A reviewer inspects it with 'ratchet review show "
            + s.runId()
            + "' and decides with 'ratchet review decide "
            + s.runId()
            + " --decision replan|abort --reviewer NAME'; then 'ratchet resume "
            + s.runId()
            + "'",
        refused);
  }

  private Result awaitingApproval(RunState s, String why, String refused) {
    return new Result(
        Stop.AWAITING_APPROVAL,
        ErrorCode.APPROVAL.exitCode(),
        "run "
            + s.runId()
            + " is waiting for approval of "
            + s.pending().action().kind()
            + " "
            + s.pending().action().actionId()
            + ": "
            + why
            + ". An approver runs 'ratchet approve "
            + s.runId()
            + " --approver NAME' (or 'ratchet refresh-approval' for expired evidence); then"
            + " 'ratchet resume "
            + s.runId()
            + "'",
        refused);
  }
}
