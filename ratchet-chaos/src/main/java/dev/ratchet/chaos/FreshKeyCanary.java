package dev.ratchet.chaos;

import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.ForwardingAdapter;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.store.Fence;
import java.util.UUID;

/**
 * The failover campaign's canary (issue 43, D18): every attempt of a write goes out under a key
 * minted fresh for that attempt instead of the key bound to the run and action id. A run that
 * resumes from a generation the promotion lost proposes the same write again; under its bound key
 * the service replays the first receipt, under a fresh one it creates the order a second time,
 * which the ledger's count must catch. (The testkit's {@code KeyChangingAdapter} numbers attempts
 * per adapter instance, so a worker that opens a new adapter per visit would repeat its keys.)
 */
final class FreshKeyCanary extends ForwardingAdapter {
  FreshKeyCanary(EnvironmentAdapter delegate) {
    super(delegate);
  }

  @Override
  public AdapterOutcome execute(
      WriteIntent intent, String key, Fence fence, ApprovalBinding approval) {
    return delegate.execute(intent, key + "~" + UUID.randomUUID(), fence, approval);
  }
}
