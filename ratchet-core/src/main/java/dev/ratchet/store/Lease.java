package dev.ratchet.store;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Text;
import java.time.Instant;
import java.util.Objects;

/**
 * Ownership of a run (SPEC §5, D8, D21); {@link #fence()} is what every adapter call carries.
 *
 * <p>A lease returned by {@link LeaseStore#acquire}, {@link LeaseStore#takeOver} or {@link
 * LeaseStore#renew} is <em>held</em>: it carries the secret {@link LeaseToken} that renew, release
 * and commit present. A lease read back with {@link LeaseStore#current} is only <em>observed</em>:
 * its {@code token} is {@code null}, since the store keeps only the token's hash, and it can
 * neither renew, release nor commit.
 *
 * @param token the holder's secret, or {@code null} for an observed lease
 */
public record Lease(String runId, String owner, long version, Instant expiresAt, LeaseToken token) {
  public Lease {
    Text.require("run_id", runId);
    Text.require("owner", owner);
    Objects.requireNonNull(expiresAt, "expiresAt");
    if (version < 1) {
      throw new IllegalArgumentException("lease version must be >= 1");
    }
  }

  /** An observed lease: no token. */
  public Lease(String runId, String owner, long version, Instant expiresAt) {
    this(runId, owner, version, expiresAt, null);
  }

  public Fence fence() {
    return new Fence(runId, owner, version);
  }

  /** Whether this lease carries its token (was granted to the caller). */
  public boolean held() {
    return token != null;
  }

  /** The same lease without its token, as {@link LeaseStore#current} shows it. */
  public Lease observed() {
    return new Lease(runId, owner, version, expiresAt);
  }

  /** The same lease and token with a new expiry (a renewal). */
  public Lease withExpiry(Instant at) {
    return new Lease(runId, owner, version, at, token);
  }

  /** The token, or {@code FENCED} for an observed lease (it cannot act). */
  public LeaseToken requireToken() {
    if (token == null) {
      throw new RatchetException(
          ErrorCode.FENCED, "lease of run '" + runId + "' carries no token: it was only observed");
    }
    return token;
  }
}
