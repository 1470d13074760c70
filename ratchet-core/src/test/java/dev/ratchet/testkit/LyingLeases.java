package dev.ratchet.testkit;

import dev.ratchet.store.Fence;
import dev.ratchet.store.ForwardingLeaseStore;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseStore;
import java.time.Duration;

/**
 * A lease store that lies to its worker: grants, take-overs, releases and lookups go to the real
 * store, but the runtime's own revalidation ({@code check}, {@code renew}) always passes. A worker
 * fooled so, whose lease has lapsed or been taken over, reaches the store's commit, where only the
 * store's compare-and-set (or the adapter's fence check) can stop it.
 */
public final class LyingLeases extends ForwardingLeaseStore {
  public LyingLeases(LeaseStore real) {
    super(real);
  }

  /** Renews without asking the store. */
  @Override
  public Lease renew(Lease lease, Duration ttl) {
    return lease;
  }

  /** Checks nothing. */
  @Override
  public void check(Fence fence) {}
}
