package dev.ratchet.jdbc.internal;

import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.Lease;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;

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
  public Optional<Lease> grant(
      Connection c, Side marks, String runId, String owner, Duration ttl, boolean steal)
      throws SQLException {
    return Leases.grant(c, runId, owner, ttl, marks.now(c), steal);
  }

  @Override
  public Lease renew(Connection c, Side marks, Lease lease, Duration ttl) throws SQLException {
    return Leases.renew(c, lease, ttl, marks.now(c));
  }

  @Override
  public void release(Connection c, Lease lease) throws SQLException {
    Leases.release(c, lease);
  }
}
