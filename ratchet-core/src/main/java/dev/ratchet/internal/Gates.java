package dev.ratchet.internal;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.Phase;
import dev.ratchet.model.PhaseTransitions.Transition;

/**
 * Phase and budget gates (reference-behaviour §2.2), extended with wall time (on the injected
 * clock, from run start, downtime included) and cost. An exhausted budget fails the run with an
 * explicit stop reason, commits that, and raises {@code TERMINAL}.
 */
final class Gates {
  private Gates() {}

  static void requireActive(Engine.Op op) {
    if (op.b.phase() == Phase.NEEDS_REVIEW) {
      throw new RatchetException(
          ErrorCode.REVIEW_REQUIRED,
          "run is frozen in needs_review ("
              + op.b.stopReason
              + "): a signed reviewer decision is required");
    }
    if (op.b.phase() == Phase.PAUSED) {
      throw new RatchetException(
          ErrorCode.CONTRACT,
          "run is paused by an operator: it moves again after a signed unpause");
    }
    if (op.b.phase().terminal()) {
      throw new RatchetException(
          ErrorCode.TERMINAL, "run is " + op.b.phase().wireName() + " (" + op.b.stopReason + ")");
    }
  }

  /** G1–G3 of propose, plus the wall-time and cost budgets. */
  static void beforeProposal(Engine engine, Engine.Op op) {
    requireActive(op);
    Budgets caps = engine.ctx().task().budgets();
    Transition exhausted = null;
    if (op.b.usage.proposals() >= caps.maxProposals()) {
      exhausted = Transition.PROPOSAL_BUDGET;
    } else if (engine.nowMs() - op.b.usage.startedAtMs() >= caps.maxWallTimeMs()) {
      exhausted = Transition.WALL_TIME;
    } else if (op.b.usage.cost() > caps.maxCost()) {
      exhausted = Transition.COST_BUDGET;
    }
    if (exhausted != null) {
      failAndThrow(engine, op, exhausted);
    }
  }

  /** The step gate: a step is about to be consumed. */
  static void stepGate(Engine engine, Engine.Op op) {
    if (op.b.usage.steps() >= engine.ctx().task().budgets().maxSteps()) {
      failAndThrow(engine, op, Transition.STEP_BUDGET);
    }
  }

  static void consumeStep(Engine engine, Engine.Op op) {
    stepGate(engine, op);
    op.b.usage = op.b.usage.withSteps(op.b.usage.steps() + 1);
  }

  private static void failAndThrow(Engine engine, Engine.Op op, Transition t) {
    String reason = t.outcome().wireName();
    if (op.b.pending != null) {
      throw RatchetException.contract(
          "budget exhausted (" + reason + ") while an intent is pending: reconcile it first");
    }
    Engine.Op fresh = engine.begin();
    engine.fail(fresh, t);
    engine.commit(fresh);
    throw new RatchetException(ErrorCode.TERMINAL, "run failed: " + reason);
  }
}
