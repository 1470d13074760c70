package dev.ratchet.jdbc.internal;

import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.Lease;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;

/**
 * The writes that move a mark or a lease, where the engines differ in <em>who</em> may make them.
 * SQLite runs the statements inline, judging expiry on the injected clock ({@link InlineWrites}).
 * PostgreSQL calls {@code SECURITY DEFINER} functions owned by the schema owner, which read the
 * database clock themselves, so a worker role that may not UPDATE the mark or lease tables can
 * still commit, but only forward and only under its live lease ({@link FunctionWrites}).
 *
 * <p>Each method runs inside a write transaction of the mark side.
 */
public interface Writes {

  /**
   * The verdict of one compare-and-set: its row count (1 won, 0 refused, anything else is a bug)
   * and the time the lease was judged at, which a refusal must be explained with.
   */
  record Advance(int rows, long judgedAtMs) {}

  /**
   * The compare-and-set of a commit (one statement checks generation, instance and live lease);
   * when it wins, also logs the new generation and forgets logged generations older than {@code
   * retainOlder} below it.
   */
  Advance advance(Connection c, Side marks, CommitRequest r, String digest, int retainOlder)
      throws SQLException;

  /** Grants the lease when it is free: never held, released, or (if {@code steal}) expired. */
  Optional<Lease> grant(
      Connection c, Side marks, String runId, String owner, Duration ttl, boolean steal)
      throws SQLException;

  /** Extends a live lease to now + ttl; {@code FENCED} otherwise. */
  Lease renew(Connection c, Side marks, Lease lease, Duration ttl) throws SQLException;

  /** Clears {@code held} if the lease is still this one; otherwise a no-op. */
  void release(Connection c, Lease lease) throws SQLException;

  /** The ttl in milliseconds; a ttl that is not positive is refused with {@code CONTRACT}. */
  static long ttlMillis(Duration ttl) {
    if (ttl.isNegative() || ttl.isZero()) {
      throw dev.ratchet.error.RatchetException.contract("lease ttl: must be positive");
    }
    return ttl.toMillis();
  }
}
