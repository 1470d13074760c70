package dev.ratchet.testkit;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;

/** A clock that moves only when a test moves it; thread-safe. */
public final class ManualClock implements InstantSource {
  private final AtomicReference<Instant> now;

  public ManualClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  public void advance(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("a clock only moves forward: " + d);
    }
    now.updateAndGet(t -> t.plus(d));
  }

  public void set(Instant t) {
    now.set(t);
  }
}
