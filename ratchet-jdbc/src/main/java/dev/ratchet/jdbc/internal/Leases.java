package dev.ratchet.jdbc.internal;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.store.Fence;
import dev.ratchet.store.Lease;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * {@code ratchet_leases} (SPEC D8). Expiry is judged on the store's injected clock in epoch
 * milliseconds: a lease is live while {@code now < expires_at}. Every grant bumps the version, so
 * an older holder's fence is refused from then on. Each method runs inside a write transaction of
 * the mark side, so read-then-write is safe.
 */
public final class Leases {
  /** The fence predicate the commit's compare-and-set embeds: owner, version, held, unexpired. */
  static final String LIVE =
      "EXISTS (SELECT 1 FROM ratchet_leases WHERE run_id = ? AND owner = ? AND version = ?"
          + " AND held = 1 AND expires_at_ms > ?)";

  private Leases() {}

  /** A lease row, held or released. */
  record Row(String runId, String owner, long version, long expiresAtMs, boolean held) {
    Lease lease() {
      return new Lease(runId, owner, version, Instant.ofEpochMilli(expiresAtMs));
    }

    boolean liveAt(long nowMs) {
      return held && nowMs < expiresAtMs;
    }
  }

  /** Binds {@link #LIVE}'s four parameters from {@code index}; returns the next index. */
  static int bindLive(PreparedStatement ps, int index, Fence f, long nowMs) throws SQLException {
    ps.setString(index, f.runId());
    ps.setString(index + 1, f.owner());
    ps.setLong(index + 2, f.leaseVersion());
    ps.setLong(index + 3, nowMs);
    return index + 4;
  }

  static Optional<Row> get(Connection c, String runId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT owner, version, expires_at_ms, held FROM ratchet_leases WHERE run_id = ?")) {
      ps.setString(1, runId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        return Optional.of(
            new Row(runId, rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getInt(4) == 1));
      }
    }
  }

  /** Why {@code fence} is not the current live lease, or empty if it is. */
  static Optional<String> problem(Connection c, Fence fence, long nowMs) throws SQLException {
    Optional<Row> row = get(c, fence.runId());
    if (row.isEmpty() || !row.get().held()) {
      return Optional.of("run '" + fence.runId() + "' is not leased");
    }
    Row r = row.get();
    if (!r.owner().equals(fence.owner()) || r.version() != fence.leaseVersion()) {
      return Optional.of(
          "lease of run '"
              + fence.runId()
              + "' is held by "
              + r.owner()
              + " v"
              + r.version()
              + ", not "
              + fence.owner()
              + " v"
              + fence.leaseVersion());
    }
    if (!r.liveAt(nowMs)) {
      return Optional.of(
          "lease of run '"
              + fence.runId()
              + "' expired at "
              + Instant.ofEpochMilli(r.expiresAtMs()));
    }
    return Optional.empty();
  }

  static void check(Connection c, Fence fence, long nowMs) throws SQLException {
    Optional<String> p = problem(c, fence, nowMs);
    if (p.isPresent()) {
      throw new RatchetException(ErrorCode.FENCED, p.get());
    }
  }

  /** Grants the lease when it is free: never held, released, or (if {@code steal}) expired. */
  static Optional<Lease> grant(
      Connection c, String runId, String owner, Duration ttl, long nowMs, boolean stealExpired)
      throws SQLException {
    long expires = expiry(nowMs, ttl);
    Optional<Row> row = get(c, runId);
    if (row.isEmpty()) {
      try (PreparedStatement ps =
          c.prepareStatement(
              "INSERT INTO ratchet_leases (run_id, owner, version, expires_at_ms, held)"
                  + " VALUES (?, ?, 1, ?, 1)")) {
        ps.setString(1, runId);
        ps.setString(2, owner);
        ps.setLong(3, expires);
        requireOne(ps.executeUpdate(), "lease insert");
      }
      return Optional.of(new Row(runId, owner, 1, expires, true).lease());
    }
    Row r = row.get();
    boolean free = !r.held() || (stealExpired && !r.liveAt(nowMs));
    if (!free) {
      return Optional.empty();
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE ratchet_leases SET owner = ?, version = version + 1, expires_at_ms = ?,"
                + " held = 1 WHERE run_id = ? AND version = ?")) {
      ps.setString(1, owner);
      ps.setLong(2, expires);
      ps.setString(3, runId);
      ps.setLong(4, r.version());
      requireOne(ps.executeUpdate(), "lease grant");
    }
    return Optional.of(new Row(runId, owner, r.version() + 1, expires, true).lease());
  }

  static Lease renew(Connection c, Lease lease, Duration ttl, long nowMs) throws SQLException {
    long expires = expiry(nowMs, ttl);
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE ratchet_leases SET expires_at_ms = ? WHERE run_id = ? AND owner = ?"
                + " AND version = ? AND held = 1 AND expires_at_ms > ?")) {
      ps.setLong(1, expires);
      ps.setString(2, lease.runId());
      ps.setString(3, lease.owner());
      ps.setLong(4, lease.version());
      ps.setLong(5, nowMs);
      int rows = ps.executeUpdate();
      if (rows == 0) {
        check(c, lease.fence(), nowMs);
        throw Failures.internal("lease renew matched no row although the lease is live");
      }
      requireOne(rows, "lease renew");
    }
    return new Lease(lease.runId(), lease.owner(), lease.version(), Instant.ofEpochMilli(expires));
  }

  static void release(Connection c, Lease lease) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE ratchet_leases SET held = 0 WHERE run_id = ? AND owner = ? AND version = ?"
                + " AND held = 1")) {
      ps.setString(1, lease.runId());
      ps.setString(2, lease.owner());
      ps.setLong(3, lease.version());
      ps.executeUpdate(); // 0 rows: no longer ours, a no-op by contract
    }
  }

  private static long expiry(long nowMs, Duration ttl) {
    if (ttl.isNegative() || ttl.isZero()) {
      throw RatchetException.contract("lease ttl: must be positive");
    }
    return Math.addExact(nowMs, ttl.toMillis());
  }

  /** The row-count check: one row is the only answer a keyed write may give. */
  static void requireOne(int rows, String what) {
    if (rows != 1) {
      throw Failures.internal(what + " changed " + rows + " rows, expected exactly 1");
    }
  }
}
