package dev.ratchet.jdbc;

import dev.ratchet.store.Fence;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseStore;
import java.time.Duration;
import java.util.Optional;

/**
 * Delegates everything but the runtime's own revalidation ({@code check}, {@code renew}), which
 * always passes: a worker whose pre-checks are fooled, so that only the store's compare-and-set or
 * the adapter's fence check can stop it.
 */
final class LyingLeases implements LeaseStore {
  private final LeaseStore real;

  LyingLeases(LeaseStore real) {
    this.real = real;
  }

  @Override
  public Optional<Lease> acquire(String runId, String owner, Duration ttl) {
    return real.acquire(runId, owner, ttl);
  }

  @Override
  public Optional<Lease> takeOver(String runId, String owner, Duration ttl) {
    return real.takeOver(runId, owner, ttl);
  }

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

  @Override
  public void check(Fence fence) {}
}
