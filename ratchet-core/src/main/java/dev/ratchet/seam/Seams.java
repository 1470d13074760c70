package dev.ratchet.seam;

import java.security.SecureRandom;
import java.time.InstantSource;

/**
 * The only place production code touches the system clock or the system's randomness. Everything
 * else receives an {@link InstantSource} and an {@link Entropy}; an ArchUnit rule keeps it so.
 */
public final class Seams {
  private Seams() {}

  /** The wall clock of this machine. */
  public static InstantSource systemClock() {
    return InstantSource.system();
  }

  /** This machine's monotonic clock (lease validity is counted on it, D22). */
  public static MonotonicClock systemMonotonic() {
    return System::nanoTime;
  }

  /** A cryptographically strong source, for keys, nonces and idempotency keys. */
  public static Entropy secureEntropy() {
    SecureRandom random = new SecureRandom();
    return n -> {
      byte[] out = new byte[n];
      random.nextBytes(out);
      return out;
    };
  }
}
