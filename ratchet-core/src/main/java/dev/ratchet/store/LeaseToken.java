package dev.ratchet.store;

import dev.ratchet.json.Canonical;
import dev.ratchet.seam.Entropy;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Objects;

/**
 * The secret that makes a lease a capability (SPEC D21): 256 random bits handed to the holder when
 * a lease is granted or taken over. The store keeps only {@link #hash()} (SHA-256, hex), so reading
 * every row of the lease table does not let anyone renew, release or commit under the lease.
 *
 * <p>The secret never leaves the worker except as an argument of the store's own calls: {@link
 * #toString()} is redacted, the class is not serialisable, and comparisons are constant-time.
 * Adapters never see it; they see the {@link Fence} (run, lease version).
 */
public final class LeaseToken {
  /** Secret length in bytes (256 bits; D21 asks for at least 128). */
  public static final int BYTES = 32;

  private final byte[] secret;

  private LeaseToken(byte[] secret) {
    this.secret = secret;
  }

  /** A fresh token from the randomness seam. */
  public static LeaseToken generate(Entropy entropy) {
    Objects.requireNonNull(entropy, "entropy");
    return of(entropy.bytes(BYTES));
  }

  /** A token from its secret bytes (a store passing a token back; tests forging one). */
  public static LeaseToken of(byte[] secret) {
    Objects.requireNonNull(secret, "secret");
    if (secret.length < 16) {
      throw new IllegalArgumentException("a lease token needs at least 128 bits");
    }
    return new LeaseToken(secret.clone());
  }

  /** A copy of the secret, for the store call that presents it (never for logging or storage). */
  public byte[] secret() {
    return secret.clone();
  }

  /** SHA-256 of the secret as 64 lowercase hex digits: the only form a store keeps. */
  public String hash() {
    return Canonical.sha256Hex(secret);
  }

  /** Whether {@code storedHash} is this token's hash; constant-time in the compared bytes. */
  public boolean matches(String storedHash) {
    if (storedHash == null) {
      return false;
    }
    return MessageDigest.isEqual(
        hash().getBytes(StandardCharsets.US_ASCII), storedHash.getBytes(StandardCharsets.US_ASCII));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LeaseToken t && MessageDigest.isEqual(secret, t.secret);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(Canonical.sha256Hex(secret).getBytes(StandardCharsets.US_ASCII));
  }

  /** Redacted: a token is never printed. */
  @Override
  public String toString() {
    return "LeaseToken[redacted]";
  }
}
