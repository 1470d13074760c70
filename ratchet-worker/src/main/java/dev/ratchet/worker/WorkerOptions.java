package dev.ratchet.worker;

import dev.ratchet.error.RatchetException;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link Worker} claims: its lease owner name, how many runs it drives at once, how long it
 * sleeps when nothing is claimable (on PostgreSQL a notification wakes it sooner), the lease
 * time-to-live it claims with, whether it stops once nothing is claimable ({@code --once}), and the
 * longest wait of its backoff on store errors.
 */
public record WorkerOptions(
    String owner,
    int concurrency,
    Duration poll,
    Duration leaseTtl,
    boolean once,
    Duration backoffCap) {
  /** The default cap of the backoff on store errors. */
  public static final Duration DEFAULT_BACKOFF_CAP = Duration.ofSeconds(30);

  public WorkerOptions(
      String owner, int concurrency, Duration poll, Duration leaseTtl, boolean once) {
    this(owner, concurrency, poll, leaseTtl, once, DEFAULT_BACKOFF_CAP);
  }

  public WorkerOptions {
    Objects.requireNonNull(backoffCap, "backoffCap");
    if (backoffCap.toMillis() < 1) {
      throw RatchetException.contract("backoff cap: must be at least 1 ms");
    }
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(poll, "poll");
    Objects.requireNonNull(leaseTtl, "leaseTtl");
    if (concurrency < 1 || concurrency > 256) {
      throw RatchetException.contract("--concurrency: must be between 1 and 256");
    }
    if (poll.isNegative() || poll.isZero()) {
      throw RatchetException.contract("--poll: must be positive");
    }
    if (leaseTtl.isNegative() || leaseTtl.isZero()) {
      throw RatchetException.contract("lease ttl: must be positive");
    }
  }
}
