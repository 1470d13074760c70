package dev.ratchet.internal;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.EffectKind;
import dev.ratchet.adapter.Observation;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.model.PhaseTransitions.Transition;
import dev.ratchet.model.ReviewCase;
import dev.ratchet.model.TraceOutcome;
import dev.ratchet.model.WriteLifecycle;
import dev.ratchet.outcome.StepOutcome;
import java.util.function.Supplier;

/**
 * Unreceipted writes run at most once (SPEC D23, ADR 0071). Nothing can look such an effect up by
 * key, so its intent and an {@code effect_started} mark are committed before it runs, its result
 * commits at once after it returns, and a started intent without a committed result is never run
 * again: the run freezes in {@code needs_review} with reason {@code uncertain_effect}.
 */
final class UncertainEffects {
  private UncertainEffects() {}

  /** Whether the adapter declared {@code kind} unreceipted. */
  static boolean unreceipted(RunContext ctx, String kind) {
    ActionSpec spec = ctx.specs().get(kind);
    return spec != null && spec.effectKind() == EffectKind.UNRECEIPTED;
  }

  /**
   * Commits the started mark in {@code op} (which has already consumed the step) and returns the
   * marked intent; only then may the effect run.
   */
  static PendingIntent markStarted(Engine engine, Engine.Op op, PendingIntent p) {
    PendingIntent started = p.started();
    op.b.pending = started;
    op.trace(
        p.action().actionId(),
        p.action().kind(),
        TraceOutcome.EFFECT_STARTED,
        JsonObject.builder()
            .put("idempotency_key", p.key())
            .put("intent_digest", p.intentDigest())
            .build());
    engine.commit(op);
    engine.reached(WriteLifecycle.Step.START);
    return started;
  }

  /**
   * Runs the effect with the engine marked in flight (its lease is not released meanwhile). An
   * effect that throws may still have happened: the run freezes rather than forget it started.
   */
  static Ran run(Engine engine, Supplier<AdapterOutcome> effect) {
    AdapterOutcome out;
    try {
      out = effect.get();
    } catch (RatchetException e) {
      if (e.code() == ErrorCode.FENCED
          || e.code() == ErrorCode.STORE_UNAVAILABLE
          || e.code() == ErrorCode.CHECKPOINT) {
        throw e;
      }
      return new Ran(null, freeze(engine, engine.observe(), "the effect failed: " + e.code()));
    } catch (RuntimeException e) {
      String why = "the effect threw " + e.getClass().getSimpleName();
      return new Ran(null, freeze(engine, engine.observe(), why));
    }
    engine.reached(WriteLifecycle.Step.RETURN);
    return new Ran(out, null);
  }

  /** What the effect returned, or the frozen outcome when it threw. */
  record Ran(AdapterOutcome outcome, StepOutcome frozen) {}

  /** Freezes the run with every piece of evidence of the started write kept. */
  static StepOutcome freeze(Engine engine, Observation live, String why) {
    Engine.Op op = engine.begin();
    PendingIntent p = op.b.pending;
    if (p == null || !p.effectStarted()) {
      throw new RatchetException(ErrorCode.INTERNAL, "no started unreceipted write to freeze");
    }
    ReviewCase c =
        new ReviewCase(Freezer.caseId(op), ReviewCase.UNCERTAIN_EFFECT, p, null, null, live);
    JsonObject detail =
        JsonObject.builder()
            .put("why", why)
            .put("idempotency_key", p.key())
            .put("intent_digest", p.intentDigest())
            .put("effect_started", true)
            .put("binding", op.b.binding.toJson())
            .put("observed", live.toJson())
            .put("review_required", true)
            .build();
    return Freezer.freeze(engine, op, c, Transition.FREEZE_UNCERTAIN, detail);
  }
}
