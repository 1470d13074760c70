package dev.ratchet.testkit;

import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.ForwardingAdapter;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.store.Fence;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The canary of every exactly-once check (SPEC D18): passes each write to the real adapter under a
 * changed idempotency key, as a client that mints a new key per attempt would. The runtime never
 * re-executes a write it holds a key for (it looks the receipt up instead), so the canary changes
 * every key, not only retried ones. A check that still passes with it in place proves nothing.
 */
public final class KeyChangingAdapter extends ForwardingAdapter {
  private final AtomicInteger attempts = new AtomicInteger();

  public KeyChangingAdapter(EnvironmentAdapter delegate) {
    super(delegate);
  }

  @Override
  public AdapterOutcome execute(
      WriteIntent intent, String key, Fence fence, ApprovalBinding approval) {
    return delegate.execute(intent, key + "~" + attempts.incrementAndGet(), fence, approval);
  }
}
