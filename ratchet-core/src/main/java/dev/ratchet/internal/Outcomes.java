package dev.ratchet.internal;

import dev.ratchet.adapter.Receipt;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.json.JsonObject;

/** Trace outcome names and details (reference-behaviour §1.13), kept in one place. */
final class Outcomes {
  private Outcomes() {}

  /** The trace outcome of a rejected proposal, by error code (2.3.2.R). */
  static String rejection(ErrorCode code) {
    switch (code) {
      case PERMISSION:
        return "permission_denied";
      case APPROVAL:
        return "approval_rejected";
      case STALE_OBSERVATION:
        return "stale_observation";
      case IDEMPOTENCY_CONFLICT:
        return "idempotency_conflict";
      default:
        return "contract_rejected";
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
