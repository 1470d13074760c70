package dev.ratchet.jdbc.internal;

import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseToken;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The writes that move a mark or a lease, where the engines differ in <em>who</em> may make them.
 * SQLite runs the statements inline, judging expiry on the injected clock ({@link InlineWrites}).
 * PostgreSQL calls {@code SECURITY DEFINER} functions owned by the schema owner, which read the
 * database clock themselves, so a worker role that may not UPDATE the mark or lease tables can
 * still commit, but only forward and only under its live lease ({@link FunctionWrites}).
 *
 * <p>Since schema version 2 (D21) every write that changes a run presents the lease token: the
 * commit's compare-and-set, renew and release, and on PostgreSQL also each appended record and each
 * content row, which a worker role can write only through the functions.
 *
 * <p>Each method runs inside a write transaction of the mark side (content: of the content side).
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

  /**
   * Grants the lease when it is free: never held, released, or (if {@code steal}) expired; the
   * store keeps {@code token}'s hash and the returned lease carries the token. By default inline,
   * on the clock of {@code marks} (SQLite); PostgreSQL's role-restricted mark calls its function.
   */
  default Optional<Lease> grant(
      Connection c,
      Side marks,
      String runId,
      String owner,
      Duration ttl,
      boolean steal,
      LeaseToken token)
      throws SQLException {
    return Leases.grant(c, runId, owner, ttl, marks.now(c), steal, token);
  }

  /** Extends a live lease to now + ttl; {@code FENCED} otherwise. */
  Lease renew(Connection c, Side marks, Lease lease, Duration ttl) throws SQLException;

  /** Clears {@code held} if the lease is still this one and the token its token; else a no-op. */
  void release(Connection c, Lease lease) throws SQLException;

  /** Appends {@code r}'s records (each checked to continue its chain) under its lease. */
  void append(Connection c, Dialect d, CommitRequest r) throws SQLException;

  /** Writes {@code r}'s checkpoint content, addressed by {@code digest}. */
  void putContent(Connection c, CommitRequest r, String digest) throws SQLException;

  /** Deletes {@code r}'s run content that retention no longer keeps (see {@link Contents}). */
  void pruneContent(Connection c, CommitRequest r, List<String> retained) throws SQLException;

  /**
   * Whether this dialect commits a whole request (compare-and-set, records, content, pruning) in
   * one statement ({@link #commitInOneCall}) on a schema of {@code schemaVersion}.
   */
  default boolean commitsInOneCall(int schemaVersion) {
    return false;
  }

  /**
   * The whole commit of {@code r} in one statement (single database only): refused (0 rows) it
   * wrote nothing; a repeated sequence or key (and, before schema 19, a record off its chain) is
   * {@code CONTRACT} and rolls back.
   */
  default Advance commitInOneCall(Connection c, CommitRequest r, String digest, int retainOlder)
      throws SQLException {
    throw new UnsupportedOperationException("no one-call commit in this dialect");
  }

  /**
   * Whether a batch's statements are shared across its requests (one read of the set heads, no
   * savepoint per request: {@link SqliteBatch}) instead of each request's run in its savepoint.
   */
  default boolean sharesBatchStatements() {
    return false;
  }

  /**
   * One run's answer inside a batched call ({@link #commitManyInOneCall}): the compare-and-set's
   * verdict, or the refusal that failed this run alone (its writes rolled back, the others' kept).
   */
  record BatchVerdict(Advance advance, dev.ratchet.error.RatchetException refusal) {}

  /**
   * Whether this dialect commits several runs' requests in one statement, each in its own
   * subtransaction ({@link #commitManyInOneCall}), on a schema of {@code schemaVersion}.
   */
  default boolean commitsManyInOneCall(int schemaVersion) {
    return false;
  }

  /**
   * The whole commits of {@code rs} (single database only, in the order given) in one statement:
   * one verdict per request, in order. A request refused (0 rows, or a refusal) wrote nothing; the
   * others are unaffected. A failure of the statement itself fails every request.
   */
  default List<BatchVerdict> commitManyInOneCall(
      Connection c, List<CommitRequest> rs, List<String> digests, int retainOlder)
      throws SQLException {
    throw new UnsupportedOperationException("no batched commit in this dialect");
  }

  /**
   * Single database: deletes {@code r}'s run content up to its generation whose digest the
   * generation log no longer holds (what {@link #pruneContent} does with the retained digests read
   * first).
   */
  default void pruneUnlogged(Connection c, CommitRequest r) throws SQLException {
    List<String> retained =
        Marks.retained(c, r.scope().taskId(), r.scope().runId()).stream()
            .map(Marks.Retained::digest)
            .toList();
    pruneContent(c, r, retained);
  }

  /** Delivers an inbox item (the operator's write). */
  void deliver(Connection c, Dialect d, String taskId, String runId, InboxItem item)
      throws SQLException;

  /** The ttl in milliseconds; a ttl that is not positive is refused with {@code CONTRACT}. */
  static long ttlMillis(Duration ttl) {
    if (ttl.isNegative() || ttl.isZero()) {
      throw dev.ratchet.error.RatchetException.contract("lease ttl: must be positive");
    }
    return ttl.toMillis();
  }
}
