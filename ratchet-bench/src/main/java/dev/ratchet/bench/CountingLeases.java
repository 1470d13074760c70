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
  private final AtomicLong nanos = new AtomicLong();

  CountingLeases(LeaseStore delegate) {
    this.delegate = delegate;
  }

  long writes() {
    return writes.get();
  }

  long checks() {
    return checks.get();
  }

  /** Time spent inside lease calls (writes and checks), summed over threads. */
  long nanos() {
    return nanos.get();
  }

  @Override
  public Optional<Lease> acquire(String runId, String owner, Duration ttl) {
    writes.incrementAndGet();
    long t0 = Stopwatch.nanos();
    try {
      return delegate.acquire(runId, owner, ttl);
    } finally {
      nanos.addAndGet(Stopwatch.nanos() - t0);
    }
  }

  @Override
  public Optional<Lease> takeOver(String runId, String owner, Duration ttl) {
    writes.incrementAndGet();
    long t0 = Stopwatch.nanos();
    try {
      return delegate.takeOver(runId, owner, ttl);
    } finally {
      nanos.addAndGet(Stopwatch.nanos() - t0);
    }
  }

  @Override
  public Lease renew(Lease lease, Duration ttl) {
    writes.incrementAndGet();
    long t0 = Stopwatch.nanos();
    try {
      return delegate.renew(lease, ttl);
    } finally {
      nanos.addAndGet(Stopwatch.nanos() - t0);
    }
  }

  @Override
  public void release(Lease lease) {
    writes.incrementAndGet();
    long t0 = Stopwatch.nanos();
    try {
      delegate.release(lease);
    } finally {
      nanos.addAndGet(Stopwatch.nanos() - t0);
    }
  }

  @Override
  public Optional<Lease> current(String runId) {
    return delegate.current(runId);
  }

  @Override
  public void check(Fence fence) {
    checks.incrementAndGet();
    long t0 = Stopwatch.nanos();
    try {
      delegate.check(fence);
    } finally {
      nanos.addAndGet(Stopwatch.nanos() - t0);
    }
  }
}
