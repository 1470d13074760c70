package dev.ratchet.jdbc.internal;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.Lease;
import dev.ratchet.store.RunScope;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * PostgreSQL: marks and leases move only through the schema's {@code SECURITY DEFINER} functions
 * ({@link PostgresSchema}), which read the database clock ({@code ratchet_now_ms()}) themselves. A
 * worker role holds no UPDATE or DELETE on {@code ratchet_marks}, {@code ratchet_generations} or
 * {@code ratchet_leases}; it cannot pass a time of its choosing, move a mark by anything but +1
 * from the current generation, nor commit without the live lease.
 */
final class FunctionWrites implements Writes {
  static final FunctionWrites INSTANCE = new FunctionWrites();

  private FunctionWrites() {}

  @Override
  public Advance advance(Connection c, Side marks, CommitRequest r, String digest, int retainOlder)
      throws SQLException {
    RunScope s = r.scope();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT o_rows, o_judged_at_ms FROM ratchet_advance(?, ?, ?, ?, ?, ?, ?, ?)")) {
      ps.setString(1, s.taskId());
      ps.setString(2, s.runId());
      ps.setString(3, s.environmentInstanceId());
      ps.setLong(4, r.expectedGeneration());
      ps.setString(5, digest);
      ps.setString(6, r.fence().owner());
      ps.setLong(7, r.fence().leaseVersion());
      ps.setInt(8, retainOlder);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return new Advance(rs.getInt(1), rs.getLong(2));
      }
    }
  }

  @Override
  public Optional<Lease> grant(
      Connection c, Side marks, String runId, String owner, Duration ttl, boolean steal)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT o_version, o_expires_at_ms FROM ratchet_grant(?, ?, ?, ?)")) {
      ps.setString(1, runId);
      ps.setString(2, owner);
      ps.setLong(3, Writes.ttlMillis(ttl));
      ps.setBoolean(4, steal);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        long version = rs.getLong(1);
        if (rs.wasNull()) {
          return Optional.empty();
        }
        return Optional.of(new Lease(runId, owner, version, Instant.ofEpochMilli(rs.getLong(2))));
      }
    }
  }

  @Override
  public Lease renew(Connection c, Side marks, Lease lease, Duration ttl) throws SQLException {
    long expires;
    long judgedAt;
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT o_expires_at_ms, o_judged_at_ms FROM ratchet_renew(?, ?, ?, ?)")) {
      ps.setString(1, lease.runId());
      ps.setString(2, lease.owner());
      ps.setLong(3, lease.version());
      ps.setLong(4, Writes.ttlMillis(ttl));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        expires = rs.getLong(1);
        boolean refused = rs.wasNull();
        judgedAt = rs.getLong(2);
        if (refused) {
          Leases.check(c, lease.fence(), judgedAt);
          throw new RatchetException(
              ErrorCode.FENCED, "the lease of run '" + lease.runId() + "' changed while renewing");
        }
      }
    }
    return new Lease(lease.runId(), lease.owner(), lease.version(), Instant.ofEpochMilli(expires));
  }

  @Override
  public void release(Connection c, Lease lease) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT ratchet_release(?, ?, ?)")) {
      ps.setString(1, lease.runId());
      ps.setString(2, lease.owner());
      ps.setLong(3, lease.version());
      ps.executeQuery().close(); // 0 rows released: no longer ours, a no-op by contract
    }
  }
}
