package dev.ratchet.bench;

import dev.ratchet.store.Fence;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseStore;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts lease writes (acquire, take-over, renew, release: each is its own durable transaction,
 * which the store's commit statistics do not include) and lease checks (reads), then forwards.
 */
final class CountingLeases implements LeaseStore {
  private final LeaseStore delegate;
  private final AtomicLong writes = new AtomicLong();
  private final AtomicLong checks = new AtomicLong();

  CountingLeases(LeaseStore delegate) {
    this.delegate = delegate;
  }

  long writes() {
    return writes.get();
  }

  long checks() {
    return checks.get();
  }

  @Override
  public Optional<Lease> acquire(String runId, String owner, Duration ttl) {
    writes.incrementAndGet();
    return delegate.acquire(runId, owner, ttl);
  }

  @Override
  public Optional<Lease> takeOver(String runId, String owner, Duration ttl) {
    writes.incrementAndGet();
    return delegate.takeOver(runId, owner, ttl);
  }

  @Override
  public Lease renew(Lease lease, Duration ttl) {
    writes.incrementAndGet();
    return delegate.renew(lease, ttl);
  }

  @Override
  public void release(Lease lease) {
    writes.incrementAndGet();
    delegate.release(lease);
  }

  @Override
  public Optional<Lease> current(String runId) {
    return delegate.current(runId);
  }

  @Override
  public void check(Fence fence) {
    checks.incrementAndGet();
    delegate.check(fence);
  }
}
