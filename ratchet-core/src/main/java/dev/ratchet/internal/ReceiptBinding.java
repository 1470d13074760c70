package dev.ratchet.internal;

import dev.ratchet.adapter.Receipt;
import dev.ratchet.model.Approval;
import dev.ratchet.model.PendingIntent;

/**
 * What a receipt must prove before the runtime accepts it for a pending write (SPEC §6, issue "real
 * adapters"): it is the adapter's, for this key, intent and run, taken from the pre-state, and —
 * when policy needs approval — it names the approval the run consumed and was committed before that
 * approval expired. A receipt that fails any of these goes to human review.
 */
final class ReceiptBinding {
  private ReceiptBinding() {}

  /** Null when the receipt is bound; otherwise what is missing or wrong. */
  static String problem(RunContext ctx, PendingIntent p, Receipt r, String runId) {
    if (!r.namespace().equals(ctx.adapter().namespace())) {
      return "receipt namespace '" + r.namespace() + "' is not the adapter's";
    }
    if (!r.idempotencyKey().equals(p.key())) {
      return "receipt is for another idempotency key";
    }
    if (!r.intentDigest().equals(p.intentDigest())) {
      return "receipt is for another intent";
    }
    if (!r.fenceRunId().equals(runId)) {
      return "receipt was fenced for another run";
    }
    if (r.revisionBefore() != p.preState().revision()
        || !r.fingerprintBefore().equals(p.preState().stateFingerprint())) {
      return "receipt's before-state is not the pending write's pre-state";
    }
    if (ctx.task().requiresApproval(p.action().kind())) {
      if (p.approval() == null) {
        return "a write that needs approval committed before the run consumed one";
      }
      if (!p.approval().fingerprint().equals(r.approvalFingerprint())) {
        return "receipt does not name the approval the run consumed";
      }
      Approval a = Approval.fromJson(p.approval().payload(), "approval.payload");
      if (r.committedAtMs() >= a.expiresAtMs()) {
        return "receipt was committed after the approval expired";
      }
    }
    return null;
  }
}
