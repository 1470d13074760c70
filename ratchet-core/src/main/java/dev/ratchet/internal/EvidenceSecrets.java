package dev.ratchet.internal;

import dev.ratchet.sign.SecretRegistry;
import dev.ratchet.store.Lease;

/**
 * What evidence is redacted against (D27, issue 36): every key the process loaded and the lease
 * token the engine holds now (id {@code lease-token}), rebuilt only when the lease changes.
 */
final class EvidenceSecrets {
  /** The lease whose token {@link #withToken} holds. */
  private Lease lease;

  private SecretRegistry withToken;

  SecretRegistry of(SecretRegistry keys, Lease current) {
    if (keys.isEmpty() || current == null || current.token() == null) {
      return keys; // redaction off (its own tests), or no token held
    }
    if (current != lease) {
      byte[] token = current.token().secret();
      try {
        withToken = keys.with("lease-token", token);
      } finally {
        java.util.Arrays.fill(token, (byte) 0);
      }
      lease = current;
    }
    return withToken;
  }
}
