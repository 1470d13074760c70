package dev.ratchet.jdbc.internal;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.RecordSet;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Operator decisions waiting for the lease holder (SPEC D12). Delivery never touches the run's mark
 * or sets; the holder consumes an item by committing its nonce into {@link RecordSet#NONCES}, after
 * which the inbox no longer lists it.
 */
final class Inbox {
  private Inbox() {}

  static void deliver(Connection c, Dialect d, String taskId, String runId, InboxItem item)
      throws SQLException {
    // Concurrent deliveries to one run would pick the same position (PostgreSQL runs writers side
    // by side): serialise them per run.
    d.lock(c, "inbox:" + taskId.length() + ":" + taskId + runId);
    if (Marks.get(c, taskId, runId).isEmpty()) {
      throw RatchetException.contract(
          "run '" + runId + "' of task '" + taskId + "' does not exist");
    }
    if (delivered(c, taskId, runId, item.nonce())
        || Records.hasKey(c, taskId, runId, RecordSet.NONCES, item.nonce())) {
      throw new RatchetException(
          ErrorCode.APPROVAL, "nonce '" + item.nonce() + "' was already delivered to this run");
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO ratchet_inbox (task_id, run_id, nonce, position, kind, envelope)"
                + " SELECT ?, ?, ?, COALESCE(MAX(position), 0) + 1, ?, ? FROM ratchet_inbox"
                + " WHERE task_id = ? AND run_id = ?")) {
      ps.setString(1, taskId);
      ps.setString(2, runId);
      ps.setString(3, item.nonce());
      ps.setString(4, item.kind().name());
      ps.setString(5, item.envelope());
      ps.setString(6, taskId);
      ps.setString(7, runId);
      Leases.requireOne(ps.executeUpdate(), "inbox insert");
    }
  }

  private static boolean delivered(Connection c, String taskId, String runId, String nonce)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT 1 FROM ratchet_inbox WHERE task_id = ? AND run_id = ? AND nonce = ?")) {
      ps.setString(1, taskId);
      ps.setString(2, runId);
      ps.setString(3, nonce);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  static List<InboxItem> pending(Connection c, String taskId, String runId) throws SQLException {
    List<InboxItem> out = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT i.nonce, i.kind, i.envelope FROM ratchet_inbox i"
                + " WHERE i.task_id = ? AND i.run_id = ? AND NOT EXISTS"
                + " (SELECT 1 FROM ratchet_records r WHERE r.task_id = i.task_id"
                + " AND r.run_id = i.run_id AND r.set_name = ? AND r.record_key = i.nonce)"
                + " ORDER BY i.position")) {
      ps.setString(1, taskId);
      ps.setString(2, runId);
      ps.setString(3, RecordSet.NONCES.wireName());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          try {
            out.add(
                new InboxItem(
                    rs.getString(1), InboxItem.Kind.valueOf(rs.getString(2)), rs.getString(3)));
          } catch (RuntimeException e) {
            throw Failures.corrupt("inbox item '" + rs.getString(1) + "' is malformed", e);
          }
        }
      }
    }
    return out;
  }
}
