package dev.ratchet.worker.internal;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.seam.MonotonicClock;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseStore;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Renews a claimed lease in the background while a driver works (ADR 0062), every third of the TTL,
 * through the lease's token, so a step longer than the TTL keeps its run. Once a renewal is refused
 * ({@code FENCED}), or no renewal succeeded before the lease's local validity ran out (the request
 * time of the last good one plus the TTL minus the margin, D22), the lease counts as lost: the
 * worker stops driving the run after the step in flight, and the run's own commits are fenced by
 * the store whatever this keeper believes. Validity is counted on the worker's injected monotonic
 * clock (D22), the one the claim's send time was read from.
 */
public final class LeaseKeeper implements AutoCloseable {
  private final LeaseStore store;
  private final Lease lease;
  private final Duration ttl;
  private final long validNanos;
  private final Consumer<String> log;
  private final MonotonicClock clock;
  private final ScheduledFuture<?> task;
  private volatile long validUntil;
  private volatile boolean lost;
  private final dev.ratchet.worker.WorkerEvents events;

  public LeaseKeeper(
      ScheduledExecutorService scheduler,
      LeaseStore store,
      Lease lease,
      Duration ttl,
      MonotonicClock clock,
      long claimSentNanos,
      Consumer<String> log,
      dev.ratchet.worker.WorkerEvents events) {
    this.events = events;
    this.clock = clock;
    this.store = store;
    this.lease = lease;
    this.ttl = ttl;
    this.validNanos = ttl.toNanos() - ttl.toNanos() / 5;
    this.validUntil = claimSentNanos + validNanos;
    this.log = log;
    long every = Math.max(1, ttl.toMillis() / 3);
    this.task = scheduler.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
  }

  private void renew() {
    if (lost) {
      return;
    }
    long sent = clock.nanos();
    try {
      store.renew(lease, ttl);
      validUntil = sent + validNanos;
      events.renewal("ok");
    } catch (RatchetException e) {
      if (e.code() == ErrorCode.FENCED) {
        lose("renewal refused (" + e.getMessage() + ")");
      } else if (clock.nanos() - validUntil >= 0) {
        lose("no renewal within the lease's validity (" + e.code() + ")");
      } else {
        events.renewal("retried");
        log.accept("run " + lease.runId() + ": renewal failed (" + e.code() + "), retrying");
      }
    } catch (RuntimeException e) {
      lose("renewal failed (" + e.getClass().getSimpleName() + ")");
    }
  }

  private void lose(String why) {
    lost = true;
    events.renewal("lost");
    log.accept("run " + lease.runId() + ": lease lost: " + why + "; stopping after this step");
  }

  /** True once the lease may no longer be ours: drive nothing more under it. */
  public boolean lost() {
    return lost || clock.nanos() - validUntil >= 0;
  }

  @Override
  public void close() {
    task.cancel(false);
  }
}
