package dev.ratchet.worker.internal;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Exponential backoff with jitter for store errors (ADR 0062): the n-th consecutive failure waits a
 * random time in [d/2, d] where d = base * 2^(n-1), capped; a success resets it. Jitter keeps
 * workers that lost the same database from coming back in lockstep. Not thread-safe: one per loop.
 */
public final class Backoff {
  private final long baseMillis;
  private final long capMillis;
  private int failures;

  public Backoff(Duration base, Duration cap) {
    this.baseMillis = Math.max(1, base.toMillis());
    this.capMillis = Math.max(baseMillis, cap.toMillis());
  }

  /** Records a failure; returns how long to wait before the next attempt. */
  public Duration next() {
    failures = Math.min(failures + 1, 30);
    long d = Math.min(capMillis, baseMillis << Math.min(failures - 1, 20));
    long half = d / 2;
    return Duration.ofMillis(half + ThreadLocalRandom.current().nextLong(d - half + 1));
  }

  /** Records a success. */
  public void reset() {
    failures = 0;
  }

  public int failures() {
    return failures;
  }
}
