package dev.ratchet.store;

import java.time.Duration;
import java.util.Optional;

/**
 * Base of lease-store decorators (telemetry, a worker's claimed lease, fault injection in tests):
 * forwards every call to {@code delegate}; a subclass overrides what it changes.
 */
public abstract class ForwardingLeaseStore implements LeaseStore {
  protected final LeaseStore delegate;

  protected ForwardingLeaseStore(LeaseStore delegate) {
    this.delegate = java.util.Objects.requireNonNull(delegate, "delegate");
  }

  @Override
  public Optional<Lease> acquire(String runId, String owner, Duration ttl) {
    return delegate.acquire(runId, owner, ttl);
  }

  @Override
  public Optional<Lease> takeOver(String runId, String owner, Duration ttl) {
    return delegate.takeOver(runId, owner, ttl);
  }

  @Override
  public Lease renew(Lease lease, Duration ttl) {
    return delegate.renew(lease, ttl);
  }

  @Override
  public void release(Lease lease) {
    delegate.release(lease);
  }

  @Override
  public Optional<Lease> current(String runId) {
    return delegate.current(runId);
  }

  @Override
  public void check(Fence fence) {
    delegate.check(fence);
  }
}
