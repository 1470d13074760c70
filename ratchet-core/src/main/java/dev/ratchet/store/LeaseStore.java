package dev.ratchet.store;

import java.time.Duration;
import java.util.Optional;

/**
 * Durable run ownership (SPEC D8). The store judges expiry on its own clock: PostgreSQL on the
 * database clock, SQLite and memory on the injected {@code InstantSource}. Every successful
 * acquisition or take-over increments the lease version, so an older holder's fence is refused from
 * then on.
 *
 * <p><b>Capability (D21).</b> Every grant (acquire, take-over) returns a lease carrying a fresh
 * secret {@link LeaseToken} from the randomness seam; the store keeps only the token's SHA-256.
 * Renew, release and {@link CheckpointStore#commit} present the token, and a wrong or missing token
 * is refused exactly like a stale fence (renew and commit: {@code FENCED}; release: no-op). Knowing
 * the owner name and lease version (readable by anyone who reads the store) is not enough.
 *
 * <p>Thread-safe; every method that changes a lease returns once the change is durable.
 */
public interface LeaseStore {

  /**
   * Grants the lease if the run has no holder: never leased, or released. Never steals an expired
   * lease.
   */
  Optional<Lease> acquire(String runId, String owner, Duration ttl);

  /**
   * Takes the lease over from a holder whose lease has expired (a recovery worker's path). Empty
   * while the current lease is unexpired; also grants a lease that was never held or released.
   */
  Optional<Lease> takeOver(String runId, String owner, Duration ttl);

  /**
   * Extends a held lease (same version, same token). Throws {@code FENCED} if the lease expired,
   * another owner or version holds it now, or the token is missing or wrong.
   */
  Lease renew(Lease lease, Duration ttl);

  /** Gives the lease up; a no-op if it is no longer held by this fence and token. */
  void release(Lease lease);

  /** The current lease of the run, expired or not, as observed: without its token. */
  Optional<Lease> current(String runId);

  /** Throws {@code FENCED} unless {@code fence} is the current, unexpired lease of its run. */
  void check(Fence fence);
}
