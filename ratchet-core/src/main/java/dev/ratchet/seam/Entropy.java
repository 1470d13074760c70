package dev.ratchet.seam;

/**
 * The randomness seam. Idempotency keys (D4), nonces and generated key material come from here and
 * nowhere else, so tests can make every run reproducible from a seed.
 */
public interface Entropy {
  /** Fills a new array of {@code n} random bytes. */
  byte[] bytes(int n);

  /** 128 random bits as 32 lowercase hex characters: the form of every minted idempotency key. */
  default String hex128() {
    return java.util.HexFormat.of().formatHex(bytes(16));
  }
}
