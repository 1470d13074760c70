package dev.ratchet.testkit;

import dev.ratchet.seam.Entropy;
import java.util.Random;

/**
 * Reproducible randomness for tests: every key, nonce and idempotency key of a run follows from the
 * seed, so a failing test reproduces with its printed seed. Never for production use.
 */
public final class SeededEntropy implements Entropy {
  private final Random random;
  private final long seed;

  public SeededEntropy(long seed) {
    this.seed = seed;
    this.random = new Random(seed);
  }

  public long seed() {
    return seed;
  }

  @Override
  public synchronized byte[] bytes(int n) {
    byte[] out = new byte[n];
    random.nextBytes(out);
    return out;
  }
}
