package dev.ratchet.chaos;

import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.ForwardingAdapter;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.store.Fence;
import java.util.UUID;

/**
 * The failover campaign's canary (issue 43, D18): a client that mints a fresh key for every attempt
 * of a write instead of using the key bound to the run and action id, and hands the runtime the
 * service's receipt as if it were under the bound key (so a run gets past its first write, as it
 * would with such a client). A run that resumes from a generation the promotion lost proposes the
 * same write again; under its bound key the service would replay the first receipt, under a fresh
 * one it creates the order a second time, which the ledger's count must catch. Lookups by the bound
 * key find nothing. (The testkit's {@code KeyChangingAdapter} numbers attempts per adapter
 * instance, so a worker that opens a new adapter per visit would repeat its keys.)
 */
final class FreshKeyCanary extends ForwardingAdapter {
  FreshKeyCanary(EnvironmentAdapter delegate) {
    super(delegate);
  }

  @Override
  public AdapterOutcome execute(
      WriteIntent intent, String key, Fence fence, ApprovalBinding approval) {
    AdapterOutcome o = delegate.execute(intent, key + "~" + UUID.randomUUID(), fence, approval);
    Receipt r = o.receipt();
    return new AdapterOutcome(
        o.kind(),
        new Receipt(
            r.namespace(),
            r.adapterVersion(),
            r.receiptId(),
            key,
            r.intentDigest(),
            r.result(),
            r.revisionBefore(),
            r.revisionAfter(),
            r.fingerprintBefore(),
            r.fingerprintAfter(),
            r.committedAtMs(),
            r.fenceRunId(),
            r.fenceLeaseVersion(),
            r.approvalFingerprint(),
            r.businessId()));
  }
}
