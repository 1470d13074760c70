package dev.ratchet.harness.demo;

import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.Phase;
import dev.ratchet.model.RunState;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.Recovery;
import dev.ratchet.outcome.StepOutcome;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The demo's agent: a deterministic one that follows the task file's plan through the library's
 * front door. The run's plan cursor says which step is next; a pending write is reconciled first
 * (the crash windows); a frozen run applies a delivered reviewer decision. It stops when the run
 * ends, freezes, or waits for a signed approval. The runtime makes every decision.
 */
final class DemoAgent {
  /** Why the agent stopped. */
  enum Stop {
    ENDED,
    FROZEN,
    AWAITING_APPROVAL
  }

  /** Why the agent stopped, with the worker's exit code and a summary line. */
  record Result(Stop stop, int exitCode, String summary) {}

  private final Run run;
  private final List<DemoTask.Step> plan;
  private final Consumer<String> progress;

  DemoAgent(Run run, List<DemoTask.Step> plan, Consumer<String> progress) {
    this.run = run;
    this.plan = List.copyOf(plan);
    this.progress = progress;
  }

  /** Drives the run; after a recovery that left a write waiting for approval, waits at once. */
  Result drive(Recovery recovery) {
    if (recovery != null && recovery.outcome() != null) {
      report(recovery.outcome());
    }
    if (recovery != null
        && recovery.did() == Recovery.Did.AWAITING_APPROVAL
        && run.state().pending() != null) {
      return stopped(Stop.AWAITING_APPROVAL, ErrorCode.APPROVAL, "awaiting approval");
    }
    for (int guard = 0; guard < 4 * plan.size() + 16; guard++) {
      RunState s = run.state();
      if (s.phase().terminal()) {
        int exit = s.phase() == Phase.COMPLETED ? 0 : ErrorCode.TERMINAL.exitCode();
        return new Result(Stop.ENDED, exit, "run " + s.runId() + " " + s.phase().wireName());
      }
      try {
        if (s.phase() == Phase.NEEDS_REVIEW) {
          StepOutcome o = run.resolveReview();
          progress.accept(
              "review: "
                  + text(o, "decision")
                  + " by "
                  + text(o, "reviewer_id")
                  + " applied; the old idempotency key is quarantined");
        } else {
          StepOutcome o = s.pending() != null ? run.reconcile() : step(s);
          if (o instanceof StepOutcome.AwaitingApproval waiting) {
            return stopped(Stop.AWAITING_APPROVAL, ErrorCode.APPROVAL, waiting.why());
          }
          report(o);
        }
      } catch (RatchetException e) {
        if (e.code() == ErrorCode.APPROVAL && run.state().phase() == Phase.NEEDS_REVIEW) {
          return stopped(Stop.FROZEN, ErrorCode.REVIEW_REQUIRED, e.getMessage());
        }
        throw e;
      }
    }
    throw new RatchetException(ErrorCode.INTERNAL, "the demo agent made no progress");
  }

  /** Proposes the plan's next step and executes it, unless it replayed a committed receipt. */
  private StepOutcome step(RunState s) {
    DemoTask.Step step = plan.get((int) s.cursor());
    String actionId = step.actionId(s.usage().proposals() + 1);
    Proposal p = run.propose(run.action(actionId, step.kind(), step.arguments()));
    return p.kind() == Proposal.Kind.REPLAYED ? p.replay() : run.execute(p);
  }

  private Result stopped(Stop stop, ErrorCode code, String why) {
    RunState s = run.state();
    return new Result(stop, code.exitCode(), "run " + s.runId() + " stopped: " + why);
  }

  private void report(StepOutcome o) {
    String line =
        String.format(
            Locale.ROOT,
            "step %d/%d  %s: %s",
            Math.min(run.state().cursor(), plan.size()),
            plan.size(),
            o.actionId(),
            o.kind().name().toLowerCase(Locale.ROOT));
    if (o.receipt() != null) {
      line +=
          " (revision " + o.receipt().revisionBefore() + " -> " + o.receipt().revisionAfter() + ")";
    }
    if (o.kind() == StepOutcome.Kind.FROZEN && o.review() != null) {
      line += " -> needs_review (" + o.review().reason() + ")";
    }
    progress.accept(line);
  }

  private static String text(StepOutcome o, String key) {
    return o.result().get(key).orElse(null) instanceof JsonString s ? s.value() : "";
  }
}
