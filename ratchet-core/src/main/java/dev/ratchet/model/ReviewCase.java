package dev.ratchet.model;

import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.json.Text;
import java.util.Objects;
import java.util.Set;

/**
 * The frozen evidence of an open review (SPEC §8, D13): why the run froze, the pending intent at
 * freeze time, the complete conflicting receipt and its fingerprint (receipt conflicts), and the
 * environment observed when it froze. Resolved cases are sealed into the trace.
 */
public record ReviewCase(
    String caseId,
    String reason,
    PendingIntent pending,
    Receipt observedReceipt,
    String observedReceiptFingerprint,
    Observation observation) {

  public static final String RECEIPT_CONFLICT = "receipt_intent_conflict";
  public static final String ENVIRONMENT_DRIFT = "environment_drift";

  /** A same-intent receipt lacking a binding the run requires (approval, fence, pre-state). */
  public static final String RECEIPT_UNBOUND = "receipt_unbound";

  /** An operator's signed cancel arrived while a write was pending (issue 17). */
  public static final String CANCEL_REQUESTED = "cancel_requested";

  /** An unreceipted write started and no result was committed: it may have happened (D23). */
  public static final String UNCERTAIN_EFFECT = "uncertain_effect";

  /** Every reason a run is frozen for (metrics register one series each at zero). */
  public static final Set<String> REASONS =
      Set.of(
          RECEIPT_CONFLICT, ENVIRONMENT_DRIFT, RECEIPT_UNBOUND, CANCEL_REQUESTED, UNCERTAIN_EFFECT);

  public ReviewCase {
    Text.require("case_id", caseId);
    if (!REASONS.contains(reason)) {
      throw dev.ratchet.error.RatchetException.contract("review.reason: unknown '" + reason + "'");
    }
    Objects.requireNonNull(observation, "observation");
    if (RECEIPT_CONFLICT.equals(reason) || RECEIPT_UNBOUND.equals(reason)) {
      if (pending == null || observedReceipt == null) {
        throw dev.ratchet.error.RatchetException.contract(
            "review: a receipt case keeps the pending intent and the receipt");
      }
    }
    if (observedReceipt != null
        && !observedReceipt.fingerprint().equals(observedReceiptFingerprint)) {
      throw dev.ratchet.error.RatchetException.contract(
          "review.observed_receipt_fingerprint: does not match the receipt");
    }
    if (UNCERTAIN_EFFECT.equals(reason) && (pending == null || !pending.effectStarted())) {
      throw dev.ratchet.error.RatchetException.contract(
          "review: an uncertain effect keeps the started pending intent");
    }
    if (RECEIPT_CONFLICT.equals(reason)) {
      if (observedReceipt.intentDigest().equals(pending.intentDigest())) {
        throw dev.ratchet.error.RatchetException.contract(
            "review: a receipt conflict needs a receipt with a different intent");
      }
    }
  }

  public JsonObject toJson() {
    return JsonObject.builder()
        .put("case_id", caseId)
        .put("reason", reason)
        .put("pending", pending == null ? JsonNull.INSTANCE : pending.toJson())
        .put(
            "observed_receipt",
            observedReceipt == null ? JsonNull.INSTANCE : observedReceipt.toJson())
        .put("observed_receipt_fingerprint", observedReceiptFingerprint)
        .put("observation", observation.toJson())
        .build();
  }

  public static ReviewCase fromJson(JsonValue v, String path) {
    Fields f =
        Fields.exact(
            v,
            path,
            "case_id",
            "reason",
            "pending",
            "observed_receipt",
            "observed_receipt_fingerprint",
            "observation");
    return new ReviewCase(
        f.text("case_id"),
        f.text("reason"),
        f.isNull("pending") ? null : PendingIntent.fromJson(f.raw("pending"), f.path("pending")),
        f.isNull("observed_receipt")
            ? null
            : Receipt.fromJson(f.raw("observed_receipt"), f.path("observed_receipt")),
        f.optionalHex64("observed_receipt_fingerprint"),
        Observation.fromJson(f.raw("observation"), f.path("observation")));
  }
}
