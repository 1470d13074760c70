package dev.ratchet.jdbc.internal;

import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.Lease;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/**
 * SQLite: the mark and lease statements run inline on the writer connection, with expiry judged on
 * the store's injected clock read inside the transaction. Anyone who can open the file can write
 * it, so there is no role to restrict (docs/threat-model.md).
 */
final class InlineWrites implements Writes {
  static final InlineWrites INSTANCE = new InlineWrites();

  private InlineWrites() {}

  @Override
  public Advance advance(Connection c, Side marks, CommitRequest r, String digest, int retainOlder)
      throws SQLException {
    long now = marks.now(c);
    int rows = Marks.compareAndSet(c, r, digest, now);
    if (rows == 1) {
      Marks.logAndPrune(
          c, r.scope().taskId(), r.scope().runId(), r.nextGeneration(), digest, retainOlder);
    }
    return new Advance(rows, now);
  }

  @Override
  public Lease renew(Connection c, Side marks, Lease lease, Duration ttl) throws SQLException {
    return Leases.renew(c, lease, ttl, marks.now(c));
  }

  @Override
  public void release(Connection c, Lease lease) throws SQLException {
    Leases.release(c, lease);
  }

  /** SQLite: the statements run in process, so fewer and larger ones cost less (issue 38). */
  @Override
  public boolean sharesBatchStatements() {
    return true;
  }

  /** Inline: the compare-and-set that precedes it in the transaction checked the token. */
  @Override
  public void append(Connection c, Dialect d, CommitRequest r) throws SQLException {
    Records.append(c, d, r.scope().taskId(), r.scope().runId(), r.records());
  }

  @Override
  public void putContent(Connection c, CommitRequest r, String digest) throws SQLException {
    Contents.put(
        c, r.scope().taskId(), r.scope().runId(), digest, r.nextGeneration(), r.checkpoint());
  }

  @Override
  public void pruneContent(Connection c, CommitRequest r, List<String> retained)
      throws SQLException {
    Contents.prune(c, r.scope().taskId(), r.scope().runId(), r.nextGeneration(), retained);
  }

  /** One statement: the generation log is in the same database (no read of the digests first). */
  @Override
  public void pruneUnlogged(Connection c, CommitRequest r) throws SQLException {
    Contents.pruneUnlogged(c, r.scope().taskId(), r.scope().runId(), r.nextGeneration());
  }

  @Override
  public void deliver(Connection c, Dialect d, String taskId, String runId, InboxItem item)
      throws SQLException {
    Inbox.deliver(c, d, taskId, runId, item);
  }
}
