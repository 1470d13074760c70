package dev.ratchet.internal;

import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.json.JsonBool;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.model.PhaseTransitions.Transition;
import dev.ratchet.model.ReviewCase;
import dev.ratchet.outcome.StepOutcome;

/**
 * Freezes a run into {@code needs_review} with every piece of evidence kept (SPEC §8, D13): the
 * pending intent stays, the complete receipt and its fingerprint and the live observation go into
 * the case, verifier evidence is void. Only a signed reviewer decision moves the run again.
 */
final class Freezer {
  private Freezer() {}

  static StepOutcome receiptConflict(
      Engine engine, Engine.Op op, PendingIntent p, Receipt observed, Observation live) {
    ReviewCase c =
        new ReviewCase(
            caseId(op), ReviewCase.RECEIPT_CONFLICT, p, observed, observed.fingerprint(), live);
    JsonObject detail =
        JsonObject.builder()
            .put("error_code", ErrorCode.IDEMPOTENCY_CONFLICT.name())
            .put("expected_intent_digest", p.intentDigest())
            .put("observed_intent_digest", observed.intentDigest())
            .put("observed_receipt_fingerprint", observed.fingerprint())
            .put("review_required", true)
            .build();
    return freeze(engine, op, c, Transition.FREEZE_CONFLICT, detail);
  }

  static StepOutcome receiptUnbound(
      Engine engine, PendingIntent p, Receipt observed, Observation live, String why) {
    Engine.Op op = engine.begin();
    ReviewCase c =
        new ReviewCase(
            caseId(op), ReviewCase.RECEIPT_UNBOUND, p, observed, observed.fingerprint(), live);
    JsonObject detail =
        JsonObject.builder()
            .put("why", why)
            .put("observed_receipt_fingerprint", observed.fingerprint())
            .put("review_required", true)
            .build();
    return freeze(engine, op, c, Transition.FREEZE_UNBOUND, detail);
  }

  static StepOutcome drift(Engine engine, Observation live, String why) {
    Engine.Op op = engine.begin();
    ReviewCase c =
        new ReviewCase(caseId(op), ReviewCase.ENVIRONMENT_DRIFT, op.b.pending, null, null, live);
    JsonObject.Builder detail =
        JsonObject.builder()
            .put("why", why)
            .put("binding", op.b.binding.toJson())
            .put("observed", live.toJson())
            .put("review_required", true);
    engine.ctx().adapter().driftEvidence().ifPresent(e -> detail.put("adapter_evidence", e));
    return freeze(engine, op, c, Transition.FREEZE_DRIFT, detail.build());
  }

  /** An operator's cancel with a write pending: a reviewer decides what becomes of the write. */
  static StepOutcome cancelRequested(
      Engine engine, Engine.Op op, Observation live, JsonObject detail) {
    ReviewCase c =
        new ReviewCase(caseId(op), ReviewCase.CANCEL_REQUESTED, op.b.pending, null, null, live);
    return freeze(
        engine, op, c, Transition.FREEZE_CANCEL, detail.with("review_required", JsonBool.TRUE));
  }

  static StepOutcome freeze(
      Engine engine, Engine.Op op, ReviewCase c, Transition transition, JsonObject detail) {
    op.b.stopReason = c.reason();
    op.b.review = c;
    op.b.verified = null;
    String actionId = c.pending() == null ? null : c.pending().action().actionId();
    String kind = c.pending() == null ? null : c.pending().action().kind();
    op.transition(
        transition,
        actionId,
        kind,
        detail.with("case_id", new dev.ratchet.json.JsonString(c.caseId())));
    engine.commit(op);
    return new StepOutcome.Frozen(actionId, detail, c.observedReceipt(), c);
  }

  /** Deterministic and unique within the run: the trace position of the freeze event. */
  static String caseId(Engine.Op op) {
    return "case-" + (op.j.heads().get(dev.ratchet.store.RecordSet.TRACE).count() + 1);
  }
}
