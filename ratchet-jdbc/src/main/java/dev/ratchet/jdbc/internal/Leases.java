package dev.ratchet.jdbc.internal;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.store.Fence;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseToken;
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
 *
 * <p>Since schema version 2 a lease is a capability (D21): the row keeps the SHA-256 of the
 * holder's token ({@code token_hash}), and renew, release and the commit's compare-and-set match
 * it. The hash is as readable as the rest of the row, so matching hashes in SQL leaks nothing about
 * the token; Java compares them in constant time ({@link LeaseToken#matches}).
 */
public final class Leases {
  /**
   * The fence predicate the commit's compare-and-set embeds: owner, version, held, unexpired, and
   * the token's hash.
   */
  static final String LIVE =
      "EXISTS (SELECT 1 FROM ratchet_leases WHERE run_id = ? AND owner = ? AND version = ?"
          + " AND held = 1 AND expires_at_ms > ? AND token_hash = ?)";

  private Leases() {}

  /** A lease row, held or released. */
  record Row(
      String runId, String owner, long version, long expiresAtMs, boolean held, String tokenHash) {
    Lease lease() {
      return new Lease(runId, owner, version, Instant.ofEpochMilli(expiresAtMs));
    }

    boolean liveAt(long nowMs) {
      return held && nowMs < expiresAtMs;
    }
  }

  /** Binds {@link #LIVE}'s five parameters from {@code index}; returns the next index. */
  static int bindLive(PreparedStatement ps, int index, Fence f, LeaseToken token, long nowMs)
      throws SQLException {
    ps.setString(index, f.runId());
    ps.setString(index + 1, f.owner());
    ps.setLong(index + 2, f.leaseVersion());
    ps.setLong(index + 3, nowMs);
    ps.setString(index + 4, token.hash());
    return index + 5;
  }

  static Optional<Row> get(Connection c, String runId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT owner, version, expires_at_ms, held, token_hash FROM ratchet_leases"
                + " WHERE run_id = ?")) {
      ps.setString(1, runId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        return Optional.of(
            new Row(
                runId,
                rs.getString(1),
                rs.getLong(2),
                rs.getLong(3),
                rs.getInt(4) == 1,
                rs.getString(5)));
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

  /** {@link #problem(Connection, Fence, long)}, and then whether {@code token} is the lease's. */
  static Optional<String> problem(Connection c, Fence fence, LeaseToken token, long nowMs)
      throws SQLException {
    Optional<String> p = problem(c, fence, nowMs);
    if (p.isPresent()) {
      return p;
    }
    String stored = get(c, fence.runId()).map(Row::tokenHash).orElse(null);
    return token.matches(stored)
        ? Optional.empty()
        : Optional.of("lease token of run '" + fence.runId() + "' does not match the lease");
  }

  static void check(Connection c, Fence fence, LeaseToken token, long nowMs) throws SQLException {
    Optional<String> p = problem(c, fence, token, nowMs);
    if (p.isPresent()) {
      throw new RatchetException(ErrorCode.FENCED, p.get());
    }
  }

  static void check(Connection c, Fence fence, long nowMs) throws SQLException {
    Optional<String> p = problem(c, fence, nowMs);
    if (p.isPresent()) {
      throw new RatchetException(ErrorCode.FENCED, p.get());
    }
  }

  /** Grants the lease when it is free: never held, released, or (if {@code steal}) expired. */
  static Optional<Lease> grant(
      Connection c,
      String runId,
      String owner,
      Duration ttl,
      long nowMs,
      boolean stealExpired,
      LeaseToken token)
      throws SQLException {
    long expires = expiry(nowMs, ttl);
    Optional<Row> row = get(c, runId);
    if (row.isEmpty()) {
      try (PreparedStatement ps =
          c.prepareStatement(
              "INSERT INTO ratchet_leases"
                  + " (run_id, owner, version, expires_at_ms, held, token_hash)"
                  + " VALUES (?, ?, 1, ?, 1, ?)")) {
        ps.setString(1, runId);
        ps.setString(2, owner);
        ps.setLong(3, expires);
        ps.setString(4, token.hash());
        requireOne(ps.executeUpdate(), "lease insert");
      }
      return Optional.of(new Lease(runId, owner, 1, Instant.ofEpochMilli(expires), token));
    }
    Row r = row.get();
    boolean free = !r.held() || (stealExpired && !r.liveAt(nowMs));
    if (!free) {
      return Optional.empty();
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE ratchet_leases SET owner = ?, version = version + 1, expires_at_ms = ?,"
                + " held = 1, token_hash = ? WHERE run_id = ? AND version = ?")) {
      ps.setString(1, owner);
      ps.setLong(2, expires);
      ps.setString(3, token.hash());
      ps.setString(4, runId);
      ps.setLong(5, r.version());
      requireOne(ps.executeUpdate(), "lease grant");
    }
    return Optional.of(
        new Lease(runId, owner, r.version() + 1, Instant.ofEpochMilli(expires), token));
  }

  static Lease renew(Connection c, Lease lease, Duration ttl, long nowMs) throws SQLException {
    long expires = expiry(nowMs, ttl);
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE ratchet_leases SET expires_at_ms = ? WHERE run_id = ? AND owner = ?"
                + " AND version = ? AND held = 1 AND expires_at_ms > ? AND token_hash = ?")) {
      LeaseToken token = lease.requireToken();
      ps.setLong(1, expires);
      ps.setString(2, lease.runId());
      ps.setString(3, lease.owner());
      ps.setLong(4, lease.version());
      ps.setLong(5, nowMs);
      ps.setString(6, token.hash());
      int rows = ps.executeUpdate();
      if (rows == 0) {
        check(c, lease.fence(), token, nowMs);
        throw Failures.internal("lease renew matched no row although the lease is live");
      }
      requireOne(rows, "lease renew");
    }
    return lease.withExpiry(Instant.ofEpochMilli(expires));
  }

  static void release(Connection c, Lease lease) throws SQLException {
    if (!lease.held()) {
      return; // an observed lease releases nothing
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE ratchet_leases SET held = 0 WHERE run_id = ? AND owner = ? AND version = ?"
                + " AND held = 1 AND token_hash = ?")) {
      ps.setString(1, lease.runId());
      ps.setString(2, lease.owner());
      ps.setLong(3, lease.version());
      ps.setString(4, lease.token().hash());
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
