package dev.ratchet.worker;

import dev.ratchet.error.RatchetException;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link Worker} claims: its lease owner name, how many runs it drives at once, how long it
 * sleeps when nothing is claimable, the lease time-to-live it claims with, and whether it stops
 * once nothing is claimable ({@code --once}).
 */
public record WorkerOptions(
    String owner, int concurrency, Duration poll, Duration leaseTtl, boolean once) {
  public WorkerOptions {
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
