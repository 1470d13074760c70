package dev.ratchet.internal;

import dev.ratchet.adapter.ActionClass;
import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Verification;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Action;
import dev.ratchet.model.PhaseTransitions.Transition;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.model.TraceOutcome;
import dev.ratchet.model.VerifiedEvidence;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.store.RecordSet;

/**
 * Executes a READY action (reference-behaviour §2.3.5): reads, verifications, finish and cancel. A
 * step is consumed first; a failure inside is traced as {@code execution_error}, committed, and
 * re-raised with the step kept.
 */
final class ReadyExecutor {
  private final Engine engine;
  private final RunContext ctx;

  ReadyExecutor(Engine engine) {
    this.engine = engine;
    this.ctx = engine.ctx();
  }

  StepOutcome execute(Action action) {
    Engine.Op op = engine.begin();
    Gates.requireActive(op);
    Gates.consumeStep(engine, op);
    JsonObject result;
    try {
      result = dispatch(op, action);
    } catch (RatchetException e) {
      if (e.code() == ErrorCode.FENCED
          || e.code() == ErrorCode.STORE_UNAVAILABLE
          || e.code() == ErrorCode.CHECKPOINT) {
        throw e;
      }
      op.trace(
          action.actionId(), action.kind(), TraceOutcome.EXECUTION_ERROR, Outcomes.error(e.code()));
      engine.budgetClose(op);
      engine.commit(op);
      throw e;
    }
    op.b.cursor += 1;
    engine.budgetClose(op);
    engine.commit(op);
    return new StepOutcome.Done(StepOutcome.Kind.EXECUTED, action.actionId(), result, null);
  }

  private JsonObject dispatch(Engine.Op op, Action a) {
    if ("finish".equals(a.kind())) {
      return finish(op, a);
    }
    if ("cancel".equals(a.kind())) {
      String reason = ((dev.ratchet.json.JsonString) a.arguments().get("reason").get()).value();
      op.b.stopReason = reason;
      JsonObject r = JsonObject.builder().put("phase", "cancelled").put("reason", reason).build();
      op.transition(Transition.CANCEL, a.actionId(), a.kind(), r);
      return r;
    }
    engine.checkLease();
    if (ActionRules.classOf(ctx, a.kind()) == ActionClass.VERIFY) {
      return verify(op, a);
    }
    JsonObject result =
        Redaction.apply(
            op,
            engine.evidenceSecrets(),
            a.actionId(),
            a.kind(),
            "result",
            ctx.adapter().read(a.kind(), a.arguments(), engine.lease().fence()));
    op.trace(
        a.actionId(),
        a.kind(),
        TraceOutcome.EXECUTED,
        JsonObject.builder().put("result_sha256", Canonical.sha256Hex(result)).build());
    return result;
  }

  private JsonObject verify(Engine.Op op, Action a) {
    Verification v =
        ctx.adapter()
            .verify(a.kind(), a.arguments(), ctx.task().verifier(), engine.lease().fence());
    if (v.detail().get("sandbox").orElse(null) instanceof dev.ratchet.json.JsonString s
        && s.value().equals("none")) {
      // The adapter ran a program outside any sandbox (the operator's explicit opt-out): an event
      // of its own, so an audit finds it without reading adapter details (SPEC D27).
      op.trace(
          a.actionId(),
          a.kind(),
          TraceOutcome.UNSANDBOXED_COMMAND,
          JsonObject.builder().put("sandbox", "none").build());
    }
    JsonObject evidence =
        Redaction.apply(op, engine.evidenceSecrets(), a.actionId(), a.kind(), "detail", v.detail());
    JsonObject detail =
        JsonObject.builder()
            .put("passed", v.passed())
            .put("revision", v.revision())
            .put("state_fingerprint", v.stateFingerprint())
            .put("detail", evidence)
            .build();
    TraceEvent e = op.trace(a.actionId(), a.kind(), TraceOutcome.EXECUTED, detail);
    if (v.passed()) {
      op.b.verified = new VerifiedEvidence(v.revision(), v.stateFingerprint(), e.sequence());
    }
    return detail;
  }

  /** Completion needs passing verifier evidence bound to the live environment (SPEC §10). */
  private JsonObject finish(Engine.Op op, Action a) {
    Observation live = engine.observe();
    VerifiedEvidence v = op.b.verified;
    if (v == null) {
      throw new RatchetException(ErrorCode.VERIFICATION, "finish: no passing verification yet");
    }
    if (v.revision() != live.revision() || !v.stateFingerprint().equals(live.stateFingerprint())) {
      throw new RatchetException(
          ErrorCode.VERIFICATION,
          "finish: verification belongs to revision "
              + v.revision()
              + ", the environment is at "
              + live.revision());
    }
    if (engine.find(RecordSet.TRACE, Long.toString(v.traceSequence())).isEmpty()) {
      throw new RatchetException(
          ErrorCode.VERIFICATION, "finish: the verification event is missing from the trace");
    }
    CompletionEvidence.check(ctx, engine.state(), v);
    op.b.binding = live;
    op.b.stopReason = "verified_outcome";
    JsonObject r =
        JsonObject.builder()
            .put("phase", "completed")
            .put("reason", "verified_outcome")
            .put("environment_revision", live.revision())
            .build();
    op.transition(Transition.COMPLETE, a.actionId(), a.kind(), r);
    return r;
  }
}
