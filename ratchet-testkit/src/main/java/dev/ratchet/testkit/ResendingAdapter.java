package dev.ratchet.testkit;

import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.ForwardingAdapter;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.store.Fence;

/**
 * A canary of the effect count (SPEC D18): sends every write twice, the second time under a fresh
 * key, as a client that retries a timed-out request with a newly minted key would, and reports the
 * second outcome. Against an effect that is not naturally idempotent (an order) each intent then
 * happens twice, so a check that counts effects in the external system's own ledger must fail.
 */
public final class ResendingAdapter extends ForwardingAdapter {
  public ResendingAdapter(EnvironmentAdapter delegate) {
    super(delegate);
  }

  @Override
  public AdapterOutcome execute(
      WriteIntent intent, String key, Fence fence, ApprovalBinding approval) {
    delegate.execute(intent, key, fence, approval);
    return delegate.execute(intent, key + "~resent", fence, approval);
  }
}
