package dev.ratchet.testkit;

import dev.ratchet.store.Fence;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseStore;
import java.time.Duration;
import java.util.Optional;

/**
 * A lease store that lies to its worker: grants, take-overs, releases and lookups go to the real
 * store, but the runtime's own revalidation ({@code check}, {@code renew}) always passes. A worker
 * fooled so, whose lease has lapsed or been taken over, reaches the store's commit, where only the
 * store's compare-and-set (or the adapter's fence check) can stop it.
 */
public record LyingLeases(LeaseStore real) implements LeaseStore {
  @Override
  public Optional<Lease> acquire(String runId, String owner, Duration ttl) {
    return real.acquire(runId, owner, ttl);
  }

  @Override
  public Optional<Lease> takeOver(String runId, String owner, Duration ttl) {
    return real.takeOver(runId, owner, ttl);
  }

  /** Renews without asking the store. */
  @Override
  public Lease renew(Lease lease, Duration ttl) {
    return lease;
  }

  @Override
  public void release(Lease lease) {
    real.release(lease);
  }

  @Override
  public Optional<Lease> current(String runId) {
    return real.current(runId);
  }

  /** Checks nothing. */
  @Override
  public void check(Fence fence) {}
}
