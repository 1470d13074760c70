package dev.ratchet.harness.demo;

import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.ForwardingAdapter;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.store.Fence;

/**
 * The demo's canary (SPEC D18), after the testkit's {@code KeyChangingAdapter}: passes every write
 * to the real adapter under a changed idempotency key, as a client that mints a key per attempt
 * would. With it in place the demo must fail; a check that still passes proves nothing.
 */
public final class KeyChangingCanary extends ForwardingAdapter {
  private final String salt;

  /** {@code salt} differs per worker process, so every process's attempts get new keys too. */
  public KeyChangingCanary(EnvironmentAdapter delegate, String salt) {
    super(delegate);
    this.salt = salt;
  }

  @Override
  public AdapterOutcome execute(
      WriteIntent intent, String key, Fence fence, ApprovalBinding approval) {
    return delegate.execute(intent, key + "~" + salt, fence, approval);
  }
}
