package dev.ratchet.internal;

import dev.ratchet.adapter.Receipt;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.TraceOutcome;

/** Trace outcome names and details (reference-behaviour §1.13), kept in one place. */
final class Outcomes {
  private Outcomes() {}

  /** The trace outcome of a rejected proposal, by error code (2.3.2.R). */
  static TraceOutcome rejection(ErrorCode code) {
    switch (code) {
      case PERMISSION:
        return TraceOutcome.PERMISSION_DENIED;
      case APPROVAL:
        return TraceOutcome.APPROVAL_REJECTED;
      case STALE_OBSERVATION:
        return TraceOutcome.STALE_OBSERVATION;
      case IDEMPOTENCY_CONFLICT:
        return TraceOutcome.IDEMPOTENCY_CONFLICT;
      default:
        return TraceOutcome.CONTRACT_REJECTED;
    }
  }

  static JsonObject receiptDetail(Receipt r, boolean replayed) {
    return JsonObject.builder()
        .put("idempotency_key", r.idempotencyKey())
        .put("receipt_id", r.receiptId())
        .put("receipt_fingerprint", r.fingerprint())
        .put("revision_after", r.revisionAfter())
        .put("replayed", replayed)
        .build();
  }

  static JsonObject error(ErrorCode code) {
    return JsonObject.builder().put("error_code", code.name()).build();
  }
}
