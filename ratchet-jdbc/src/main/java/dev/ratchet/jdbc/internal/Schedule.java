package dev.ratchet.jdbc.internal;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.schedule.Claim;
import dev.ratchet.schedule.RowCount;
import dev.ratchet.schedule.SignedSubmission;
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
 * The scheduling rows (ADR 0060, 0064). PostgreSQL goes through the V4 SECURITY DEFINER functions;
 * SQLite does the same in one write transaction of its single writer over the schedule and lease
 * tables. Every change is judged by its row count ({@link RowCount}: 0 lost, 1 won, more a bug).
 */
public final class Schedule {
  private static final String CLAIMABLE =
      "SELECT task_id, run_id, driver, task_ref, nudges FROM ratchet_schedule s"
          + " WHERE (s.state = 'runnable' OR (s.state = 'waiting' AND s.wake_at_ms <= ?))"
          + " AND NOT EXISTS (SELECT 1 FROM ratchet_leases l WHERE l.run_id = s.run_id"
          + " AND l.held = 1 AND l.expires_at_ms > ?)"
          + " ORDER BY s.updated_at_ms, s.task_id, s.run_id LIMIT 1";

  /** A run whose lease lapsed while held comes first (ADR 0065): its worker died or stalled. */
  private static final String LAPSED =
      "SELECT s.task_id, s.run_id, s.driver, s.task_ref, s.nudges FROM ratchet_leases l"
          + " JOIN ratchet_schedule s ON s.run_id = l.run_id"
          + " WHERE l.held = 1 AND l.expires_at_ms <= ?"
          + " AND (s.state = 'runnable' OR (s.state = 'waiting' AND s.wake_at_ms <= ?))"
          + " ORDER BY l.expires_at_ms, s.task_id, s.run_id LIMIT 1";

  private Schedule() {}

  /** Every row, least recently touched first. */
  public static java.util.List<dev.ratchet.schedule.ScheduledRun> list(Connection c)
      throws SQLException {
    java.util.List<dev.ratchet.schedule.ScheduledRun> out = new java.util.ArrayList<>();
    try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT task_id, run_id, driver, task_ref, state, updated_at_ms, wake_at_ms,"
                    + " reason, reason_at_ms"
                    + " FROM ratchet_schedule ORDER BY updated_at_ms, task_id, run_id");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        long wake = rs.getLong(7);
        boolean noWake = rs.wasNull();
        String reason = rs.getString(8);
        long reasonAt = rs.getLong(9);
        boolean noReason = reason == null || rs.wasNull();
        out.add(
            new dev.ratchet.schedule.ScheduledRun(
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(5),
                Claim.SUBMITTED.equals(rs.getString(4)),
                Instant.ofEpochMilli(rs.getLong(6)),
                noWake ? null : Instant.ofEpochMilli(wake),
                noReason ? null : reason,
                noReason ? null : Instant.ofEpochMilli(reasonAt)));
      }
    }
    return out;
  }

  private static boolean postgres(Side marks) {
    return marks.dialect() instanceof PostgresDialect;
  }

  /**
   * True when a claim, or a finish with its release, is one function call (PostgreSQL, version 15)
   * and so runs as one auto-committed statement: one round trip, no BEGIN or COMMIT of its own.
   */
  public static boolean oneCall(Side marks) {
    return postgres(marks);
  }

  public static void schedule(
      Side marks, Connection c, String taskId, String runId, String driver, String taskRef)
      throws SQLException {
    if (scheduled(c, taskId, runId)) {
      // A caller's mistake, refused as such (the unique key would say STORE_UNAVAILABLE).
      throw RatchetException.contract("run_id: run '" + runId + "' is already scheduled");
    }
    if (postgres(marks)) {
      try (PreparedStatement ps = c.prepareStatement("SELECT ratchet_schedule(?, ?, ?, ?)")) {
        ps.setString(1, taskId);
        ps.setString(2, runId);
        ps.setString(3, driver);
        ps.setString(4, taskRef);
        ps.executeQuery().close();
      }
      return;
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO ratchet_schedule (task_id, run_id, driver, task_ref, state,"
                + " updated_at_ms) VALUES (?, ?, ?, ?, 'runnable', ?)")) {
      ps.setString(1, taskId);
      ps.setString(2, runId);
      ps.setString(3, driver);
      ps.setString(4, taskRef);
      ps.setLong(5, marks.now(c));
      Leases.requireOne(ps.executeUpdate(), "schedule insert");
    }
  }

  private static boolean scheduled(Connection c, String taskId, String runId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT 1 FROM ratchet_schedule WHERE task_id = ? AND run_id = ?")) {
      ps.setString(1, taskId);
      ps.setString(2, runId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  public static Optional<Claim> claim(
      Side marks, Connection c, String owner, Duration ttl, LeaseToken token) throws SQLException {
    return postgres(marks)
        ? claimPostgres(c, owner, ttl, token)
        : claimSqlite(marks, c, owner, ttl, token);
  }

  private static Optional<Claim> claimPostgres(
      Connection c, String owner, Duration ttl, LeaseToken token) throws SQLException {
    Claim claimed;
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT o_task, o_run, o_driver, o_task_ref, o_nudges, o_version, o_expires_at_ms,"
                + " o_envelope FROM ratchet_claim_next(?, ?, ?)")) {
      ps.setString(1, owner);
      ps.setLong(2, Writes.ttlMillis(ttl));
      ps.setString(3, token.hash());
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty(); // nothing claimable, or another claimer won the row
        }
        Lease lease =
            new Lease(
                rs.getString(2), owner, rs.getLong(6), Instant.ofEpochMilli(rs.getLong(7)), token);
        claimed =
            new Claim(
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                rs.getLong(5),
                lease,
                Optional.ofNullable(rs.getString(8)).map(SignedSubmission::new));
        if (rs.next()) {
          RowCount.won(2, "ratchet_claim_next"); // one claim grants one row: more is a bug
        }
      }
    }
    return Optional.of(claimed);
  }

  /** The claim with its run's signed submission, when the row says it was submitted. */
  private static Claim withSubmission(Connection c, Claim claim) throws SQLException {
    if (!claim.submitted()) {
      return claim;
    }
    Optional<SignedSubmission> s = Submissions.envelope(c, claim.taskId(), claim.runId());
    return new Claim(
        claim.taskId(),
        claim.runId(),
        claim.driver(),
        claim.taskRef(),
        claim.nudges(),
        claim.lease(),
        s);
  }

  private static Optional<Claim> claimSqlite(
      Side marks, Connection c, String owner, Duration ttl, LeaseToken token) throws SQLException {
    long now = marks.now(c);
    String taskId;
    String runId;
    String driver;
    String taskRef;
    long nudges;
    String[] row = claimable(c, LAPSED, now);
    if (row == null) {
      row = claimable(c, CLAIMABLE, now);
    }
    if (row == null) {
      return Optional.empty();
    }
    taskId = row[0];
    runId = row[1];
    driver = row[2];
    taskRef = row[3];
    nudges = Long.parseLong(row[4]);
    Optional<Lease> lease = Leases.grant(c, runId, owner, ttl, now, true, token);
    if (lease.isEmpty()) {
      return Optional.empty();
    }
    markClaimed(c, taskId, runId, now, "schedule claim");
    return Optional.of(
        withSubmission(
            c, new Claim(taskId, runId, driver, taskRef, nudges, lease.get(), Optional.empty())));
  }

  /** What a claim leaves on a row: runnable, touched at {@code now}, no reason (ADR 0066). */
  private static void markClaimed(Connection c, String taskId, String runId, long now, String what)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE ratchet_schedule SET state = 'runnable', updated_at_ms = ?,"
                + " reason = NULL, reason_at_ms = NULL WHERE task_id = ? AND run_id = ?")) {
      ps.setLong(1, now);
      ps.setString(2, taskId);
      ps.setString(3, runId);
      RowCount.requireOne(ps.executeUpdate(), what);
    }
  }

  /** The first row {@code query} finds at {@code now}: task, run, driver, task ref, nudges. */
  private static String[] claimable(Connection c, String query, long now) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(query)) {
      ps.setLong(1, now);
      ps.setLong(2, now);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return null;
        }
        return new String[] {
          rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5)
        };
      }
    }
  }

  /**
   * The claim of a row whose run's live lease the caller took without a claim (a manual resume,
   * issue 39): runnable, touched and its reason cleared, as a claim leaves it; empty when the run
   * has no row or its row ended. PostgreSQL: {@code ratchet_claim_held} (version 20).
   */
  public static Optional<Claim> claimHeld(
      Side marks, Connection c, String taskId, String runId, Lease lease) throws SQLException {
    Optional<RowOfClaim> row;
    if (postgres(marks)) {
      try (PreparedStatement ps =
          c.prepareStatement(
              "SELECT o_driver, o_task_ref, o_nudges FROM ratchet_claim_held(?, ?, ?, ?, ?)")) {
        ps.setString(1, taskId);
        ps.setString(2, runId);
        ps.setString(3, lease.owner());
        ps.setLong(4, lease.version());
        ps.setBytes(5, lease.requireToken().secret());
        try (ResultSet rs = ps.executeQuery()) {
          row = RowOfClaim.read(rs);
        } catch (SQLException e) {
          throw notLeased(e, "ratchet_claim_held");
        }
      }
    } else {
      long now = marks.now(c);
      Leases.check(c, lease.fence(), lease.requireToken(), now);
      try (PreparedStatement ps =
          c.prepareStatement(
              "SELECT driver, task_ref, nudges FROM ratchet_schedule"
                  + " WHERE task_id = ? AND run_id = ? AND state <> 'ended'")) {
        ps.setString(1, taskId);
        ps.setString(2, runId);
        try (ResultSet rs = ps.executeQuery()) {
          row = RowOfClaim.read(rs);
        }
      }
      if (row.isPresent()) {
        markClaimed(c, taskId, runId, now, "schedule claim held");
      }
    }
    if (row.isEmpty()) {
      return Optional.empty();
    }
    RowOfClaim r = row.get();
    return Optional.of(
        withSubmission(
            c,
            new Claim(
                taskId, runId, r.driver(), r.taskRef(), r.nudges(), lease, Optional.empty())));
  }

  /** A held row's driver, task reference and nudges: the first row of {@code rs}, if any. */
  private record RowOfClaim(String driver, String taskRef, long nudges) {
    static Optional<RowOfClaim> read(ResultSet rs) throws SQLException {
      return rs.next()
          ? Optional.of(new RowOfClaim(rs.getString(1), rs.getString(2), rs.getLong(3)))
          : Optional.empty();
    }
  }

  /**
   * Parks the run as waiting unless an inbox item arrived since the claim; true if parked. A
   * reason, when not null, is kept on the row with the time (PostgreSQL: {@code
   * ratchet_park_with_reason}, version 18).
   */
  public static boolean park(
      Side marks, Connection c, Claim claim, Lease lease, Instant wakeAt, String reason)
      throws SQLException {
    if (postgres(marks)) {
      String call =
          reason == null
              ? "SELECT ratchet_park(?, ?, ?, ?, ?, ?, ?)"
              : "SELECT ratchet_park_with_reason(?, ?, ?, ?, ?, ?, ?, ?)";
      try (PreparedStatement ps = c.prepareStatement(call)) {
        int i = 1;
        ps.setString(i++, claim.taskId());
        ps.setString(i++, claim.runId());
        ps.setLong(i++, claim.nudges());
        if (wakeAt == null) {
          ps.setNull(i++, java.sql.Types.BIGINT);
        } else {
          ps.setLong(i++, wakeAt.toEpochMilli());
        }
        if (reason != null) {
          ps.setString(i++, reason);
        }
        ps.setString(i++, lease.owner());
        ps.setLong(i++, lease.version());
        ps.setBytes(i, lease.requireToken().secret());
        try (ResultSet rs = ps.executeQuery()) {
          return RowCount.won(rs.next() ? rs.getInt(1) : 0, "ratchet_park");
        } catch (SQLException e) {
          throw notLeased(e, "ratchet_park");
        }
      }
    }
    long now = marks.now(c);
    Leases.check(c, lease.fence(), lease.requireToken(), now);
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE ratchet_schedule SET state = 'waiting', wake_at_ms = ?, updated_at_ms = ?,"
                + " reason = COALESCE(?, reason),"
                + " reason_at_ms = CASE WHEN ? IS NULL THEN reason_at_ms ELSE ? END"
                + " WHERE task_id = ? AND run_id = ? AND state = 'runnable' AND nudges = ?")) {
      if (wakeAt == null) {
        ps.setNull(1, java.sql.Types.BIGINT);
      } else {
        ps.setLong(1, wakeAt.toEpochMilli());
      }
      ps.setLong(2, now);
      setReason(ps, 3, reason, now);
      ps.setString(6, claim.taskId());
      ps.setString(7, claim.runId());
      ps.setLong(8, claim.nudges());
      return RowCount.won(ps.executeUpdate(), "schedule park");
    }
  }

  /** Parameters {@code at}..{@code at+2}: reason, reason again, and the time it is set. */
  private static void setReason(PreparedStatement ps, int at, String reason, long now)
      throws SQLException {
    ps.setString(at, reason);
    ps.setString(at + 1, reason);
    ps.setLong(at + 2, now);
  }

  /** Marks the run's row ended under its lease and releases the lease, in one transaction. */
  public static void finishAndRelease(Side marks, Connection c, Claim claim, Lease lease)
      throws SQLException {
    if (postgres(marks)) {
      finishPostgres(c, "ratchet_finish_release", claim, lease, null);
      return;
    }
    finish(marks, c, claim, lease);
    Tables.release(marks, c, lease);
  }

  /** Marks the run's row ended under its lease. */
  public static void finish(Side marks, Connection c, Claim claim, Lease lease)
      throws SQLException {
    finish(marks, c, claim, lease, null);
  }

  /**
   * Marks the run's row ended under its lease; a reason, when not null, is kept on the row with the
   * time (PostgreSQL: {@code ratchet_finish_with_reason}, version 18).
   */
  public static void finish(Side marks, Connection c, Claim claim, Lease lease, String reason)
      throws SQLException {
    if (postgres(marks)) {
      finishPostgres(
          c,
          reason == null ? "ratchet_finish" : "ratchet_finish_with_reason",
          claim,
          lease,
          reason);
      return;
    }
    long now = marks.now(c);
    Leases.check(c, lease.fence(), lease.requireToken(), now);
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE ratchet_schedule SET state = 'ended', wake_at_ms = NULL, updated_at_ms = ?,"
                + " reason = COALESCE(?, reason),"
                + " reason_at_ms = CASE WHEN ? IS NULL THEN reason_at_ms ELSE ? END"
                + " WHERE task_id = ? AND run_id = ?")) {
      ps.setLong(1, now);
      setReason(ps, 2, reason, now);
      ps.setString(5, claim.taskId());
      ps.setString(6, claim.runId());
      RowCount.won(ps.executeUpdate(), "schedule finish");
    }
  }

  /**
   * {@code function} (ratchet_finish, ratchet_finish_with_reason, or ratchet_finish_release which
   * calls ratchet_finish) under the lease; {@code reason} is passed when not null.
   */
  private static void finishPostgres(
      Connection c, String function, Claim claim, Lease lease, String reason) throws SQLException {
    String args = reason == null ? "(?, ?, ?, ?, ?)" : "(?, ?, ?, ?, ?, ?)";
    try (PreparedStatement ps = c.prepareStatement("SELECT " + function + args)) {
      int i = 1;
      ps.setString(i++, claim.taskId());
      ps.setString(i++, claim.runId());
      if (reason != null) {
        ps.setString(i++, reason);
      }
      ps.setString(i++, lease.owner());
      ps.setLong(i++, lease.version());
      ps.setBytes(i, lease.requireToken().secret());
      try (ResultSet rs = ps.executeQuery()) {
        RowCount.won(rs.next() ? rs.getInt(1) : 0, function);
      } catch (SQLException e) {
        throw notLeased(e, "ratchet_finish"); // raised by ratchet_finish in either function
      }
    }
  }

  /**
   * The function's own refusal of a caller without the run's live lease and token ({@code 42501}
   * raised by {@code ratchet_park} or {@code ratchet_finish}) is {@code FENCED}, as on SQLite; any
   * other failure stays the database's.
   */
  private static SQLException notLeased(SQLException e, String function) throws SQLException {
    String m = Failures.serverMessage(e);
    if ("42501".equals(e.getSQLState())
        && m.startsWith(function + ": run ")
        && m.contains("is not leased under this token")) {
      throw new RatchetException(ErrorCode.FENCED, m);
    }
    return e;
  }
}
