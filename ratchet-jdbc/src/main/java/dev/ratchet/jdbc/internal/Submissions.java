package dev.ratchet.jdbc.internal;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.schedule.Claim;
import dev.ratchet.schedule.SignedSubmission;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Tasks submitted by operators (schema version 6, ADR 0061): the signed envelope waits in {@code
 * ratchet_submissions} and the run is scheduled in the same transaction. PostgreSQL goes through
 * {@code ratchet_submit} (the operator role's function); SQLite writes both rows itself. The store
 * checks only the shape: the worker verifies the signature before the run's first commit.
 */
public final class Submissions {
  private static final String EXISTS = "RT409";

  private Submissions() {}

  public static void submit(
      Side marks,
      Connection c,
      String taskId,
      String runId,
      String driver,
      SignedSubmission submission)
      throws SQLException {
    String envelope = submission.text();
    if (marks.dialect() instanceof PostgresDialect) {
      try (PreparedStatement ps = c.prepareStatement("SELECT ratchet_submit(?, ?, ?, ?)")) {
        ps.setString(1, taskId);
        ps.setString(2, runId);
        ps.setString(3, driver);
        ps.setString(4, envelope);
        ps.executeQuery().close();
      } catch (SQLException e) {
        if (EXISTS.equals(e.getSQLState())) {
          throw exists(runId);
        }
        throw e;
      }
      return;
    }
    if (taken(c, runId)) {
      throw exists(runId);
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO ratchet_submissions (task_id, run_id, driver, envelope, submitted_at_ms)"
                + " VALUES (?, ?, ?, ?, ?)")) {
      ps.setString(1, taskId);
      ps.setString(2, runId);
      ps.setString(3, driver);
      ps.setString(4, envelope);
      ps.setLong(5, marks.now(c));
      Leases.requireOne(ps.executeUpdate(), "submission insert");
    }
    Schedule.schedule(marks, c, taskId, runId, driver, Claim.SUBMITTED);
  }

  /** The submitted envelope of a run, exactly as submitted, if it was submitted. */
  public static Optional<SignedSubmission> envelope(Connection c, String taskId, String runId)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT envelope FROM ratchet_submissions WHERE task_id = ? AND run_id = ?")) {
      ps.setString(1, taskId);
      ps.setString(2, runId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(new SignedSubmission(rs.getString(1))) : Optional.empty();
      }
    }
  }

  private static boolean taken(Connection c, String runId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT 1 FROM ratchet_marks WHERE run_id = ?"
                + " UNION ALL SELECT 1 FROM ratchet_submissions WHERE run_id = ?"
                + " UNION ALL SELECT 1 FROM ratchet_schedule WHERE run_id = ?")) {
      for (int i = 1; i <= 3; i++) {
        ps.setString(i, runId);
      }
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  private static RatchetException exists(String runId) {
    return new RatchetException(
        ErrorCode.CONTRACT, "run_id: run '" + runId + "' already exists or was submitted");
  }
}
