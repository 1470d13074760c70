package dev.ratchet.jdbc.internal;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseToken;
import dev.ratchet.store.RunScope;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * PostgreSQL: every write goes through the schema's {@code SECURITY DEFINER} functions ({@link
 * PostgresSchema}, version 2), which read the database clock ({@code ratchet_now_ms()}) themselves
 * and check the lease token (D21). A worker role holds no INSERT, UPDATE or DELETE on any table; it
 * cannot pass a time of its choosing, move a mark by anything but +1 from the current generation,
 * nor renew, release, commit or append without the live lease's token; an operator role delivers
 * inbox items only through {@code ratchet_deliver}.
 */
final class FunctionWrites implements Writes {
  static final FunctionWrites INSTANCE = new FunctionWrites();

  /** {@code ratchet_deliver}'s refusals: the run does not exist; the nonce was delivered. */
  private static final String NO_RUN = "RT404";

  private static final String DELIVERED = "RT409";
  private static final String INVALID = "22023";

  private FunctionWrites() {}

  @Override
  public Advance advance(Connection c, Side marks, CommitRequest r, String digest, int retainOlder)
      throws SQLException {
    RunScope s = r.scope();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT o_rows, o_judged_at_ms FROM ratchet_advance(?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      ps.setString(1, s.taskId());
      ps.setString(2, s.runId());
      ps.setString(3, s.environmentInstanceId());
      ps.setLong(4, r.expectedGeneration());
      ps.setString(5, digest);
      ps.setString(6, r.fence().owner());
      ps.setLong(7, r.fence().leaseVersion());
      ps.setBytes(8, r.token().secret());
      ps.setInt(9, retainOlder);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return new Advance(rs.getInt(1), rs.getLong(2));
      }
    }
  }

  /** Schema version 5 added {@code ratchet_commit} (ADR 0043). */
  @Override
  public boolean commitsInOneCall(int schemaVersion) {
    return schemaVersion >= 5;
  }

  @Override
  public Advance commitInOneCall(Connection c, CommitRequest r, String digest, int retainOlder)
      throws SQLException {
    return OneCallCommit.commit(c, r, digest, retainOlder);
  }

  /** Schema version 17 added {@code ratchet_commit_batch} (ADR 0141). */
  @Override
  public boolean commitsManyInOneCall(int schemaVersion) {
    return schemaVersion >= 17;
  }

  @Override
  public List<BatchVerdict> commitManyInOneCall(
      Connection c, List<CommitRequest> rs, List<String> digests, int retainOlder)
      throws SQLException {
    return BatchedCommit.commit(c, rs, digests, retainOlder);
  }

  @Override
  public Optional<Lease> grant(
      Connection c,
      Side marks,
      String runId,
      String owner,
      Duration ttl,
      boolean steal,
      LeaseToken token)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT o_version, o_expires_at_ms FROM ratchet_grant(?, ?, ?, ?, ?)")) {
      ps.setString(1, runId);
      ps.setString(2, owner);
      ps.setLong(3, Writes.ttlMillis(ttl));
      ps.setBoolean(4, steal);
      ps.setString(5, token.hash());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        long version = rs.getLong(1);
        if (rs.wasNull()) {
          return Optional.empty();
        }
        return Optional.of(
            new Lease(runId, owner, version, Instant.ofEpochMilli(rs.getLong(2)), token));
      }
    }
  }

  @Override
  public Lease renew(Connection c, Side marks, Lease lease, Duration ttl) throws SQLException {
    LeaseToken token = lease.requireToken();
    long expires;
    long judgedAt;
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT o_expires_at_ms, o_judged_at_ms FROM ratchet_renew(?, ?, ?, ?, ?)")) {
      ps.setString(1, lease.runId());
      ps.setString(2, lease.owner());
      ps.setLong(3, lease.version());
      ps.setBytes(4, token.secret());
      ps.setLong(5, Writes.ttlMillis(ttl));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        expires = rs.getLong(1);
        boolean refused = rs.wasNull();
        judgedAt = rs.getLong(2);
        if (refused) {
          Leases.check(c, lease.fence(), token, judgedAt);
          throw new RatchetException(
              ErrorCode.FENCED, "the lease of run '" + lease.runId() + "' changed while renewing");
        }
      }
    }
    return lease.withExpiry(Instant.ofEpochMilli(expires));
  }

  @Override
  public void release(Connection c, Lease lease) throws SQLException {
    if (!lease.held()) {
      return; // an observed lease releases nothing
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT ratchet_release(?, ?, ?, ?)")) {
      ps.setString(1, lease.runId());
      ps.setString(2, lease.owner());
      ps.setLong(3, lease.version());
      ps.setBytes(4, lease.token().secret());
      ps.executeQuery().close(); // 0 rows released: no longer ours, a no-op by contract
    }
  }

  @Override
  public void append(Connection c, Dialect d, CommitRequest r) throws SQLException {
    Records.append(c, d, r.scope().taskId(), r.scope().runId(), r.records(), r);
  }

  @Override
  public void putContent(Connection c, CommitRequest r, String digest) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT ratchet_put_content(?, ?, ?, ?, ?, ?, ?, ?)")) {
      ps.setString(1, r.scope().taskId());
      ps.setString(2, r.scope().runId());
      ps.setString(3, digest);
      ps.setLong(4, r.nextGeneration());
      ps.setString(5, r.checkpoint());
      bindHolder(ps, 6, r);
      ps.executeQuery().close();
    }
  }

  @Override
  public void pruneContent(Connection c, CommitRequest r, List<String> retained)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT ratchet_prune_content(?, ?, ?, ?, ?, ?, ?)")) {
      ps.setString(1, r.scope().taskId());
      ps.setString(2, r.scope().runId());
      ps.setLong(3, r.nextGeneration());
      ps.setArray(4, c.createArrayOf("text", retained.toArray()));
      bindHolder(ps, 5, r);
      ps.executeQuery().close();
    }
  }

  private static void bindHolder(PreparedStatement ps, int i, CommitRequest r) throws SQLException {
    ps.setString(i, r.fence().owner());
    ps.setLong(i + 1, r.fence().leaseVersion());
    ps.setBytes(i + 2, r.token().secret());
  }

  @Override
  public void deliver(Connection c, Dialect d, String taskId, String runId, InboxItem item)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT ratchet_deliver(?, ?, ?, ?, ?)")) {
      ps.setString(1, taskId);
      ps.setString(2, runId);
      ps.setString(3, item.nonce());
      ps.setString(4, item.kind().name());
      ps.setString(5, item.envelope());
      ps.executeQuery().close();
    } catch (SQLException e) {
      String state = e.getSQLState();
      if (NO_RUN.equals(state) || INVALID.equals(state)) {
        throw RatchetException.contract(Failures.serverMessage(e));
      }
      if (DELIVERED.equals(state)) {
        throw new RatchetException(ErrorCode.APPROVAL, Failures.serverMessage(e));
      }
      throw e;
    }
  }
}
