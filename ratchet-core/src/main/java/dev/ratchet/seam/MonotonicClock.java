package dev.ratchet.seam;

import java.time.Instant;
import java.time.InstantSource;

/**
 * The monotonic clock seam (SPEC D22): a lease is trusted locally while this clock is before the
 * moment its grant or renewal request was sent plus the TTL minus a safety margin. Only differences
 * between two readings mean anything.
 */
@FunctionalInterface
public interface MonotonicClock {
  /** Nanoseconds from an arbitrary origin; never decreases. */
  long nanos();

  /**
   * A clock that moves with {@code clock}: what a runtime given an injected wall clock (a test's
   * fake) uses, so advancing the fake past a lease's life is seen by the local lease check too.
   */
  static MonotonicClock of(InstantSource clock) {
    return () -> {
      Instant i = clock.instant();
      return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000_000L), i.getNano());
    };
  }
}
