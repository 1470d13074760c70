package dev.ratchet.jdbc.internal;

import dev.ratchet.jdbc.RetainedCheckpoint;
import dev.ratchet.json.Canonical;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.Fence;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseToken;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The statements {@code JdbcStore} runs outside the commit protocol, each inside the transaction
 * its caller opened on a {@link Side}. A thin public door to the package's table classes.
 */
public final class Tables {
  private Tables() {}

  public static Optional<StoredRecord> find(
      Connection c, String taskId, String runId, RecordSet set, String key) throws SQLException {
    return Records.find(c, taskId, runId, set, key);
  }

  public static List<StoredRecord> page(
      Connection c, String taskId, String runId, RecordSet set, long from, int limit)
      throws SQLException {
    return Records.page(c, taskId, runId, set, from, limit);
  }

  public static List<CheckpointStore.RunRef> runs(Connection c) throws SQLException {
    return Marks.all(c);
  }

  public static List<CheckpointStore.RunRef> runs(Connection c, String runId) throws SQLException {
    return Marks.withRunId(c, runId);
  }

  public static void deliver(Side marks, Connection c, String taskId, String runId, InboxItem item)
      throws SQLException {
    marks.dialect().writes().deliver(c, marks.dialect(), taskId, runId, item);
  }

  public static List<InboxItem> inbox(Connection c, String taskId, String runId)
      throws SQLException {
    return Inbox.pending(c, taskId, runId);
  }

  public static Optional<Lease> grant(
      Side marks,
      Connection c,
      String runId,
      String owner,
      Duration ttl,
      boolean stealExpired,
      LeaseToken token)
      throws SQLException {
    return marks.dialect().writes().grant(c, marks, runId, owner, ttl, stealExpired, token);
  }

  public static Lease renew(Side marks, Connection c, Lease lease, Duration ttl)
      throws SQLException {
    return marks.dialect().writes().renew(c, marks, lease, ttl);
  }

  public static void release(Side marks, Connection c, Lease lease) throws SQLException {
    marks.dialect().writes().release(c, lease);
  }

  public static Optional<Lease> lease(Connection c, String runId) throws SQLException {
    return Leases.get(c, runId).map(Leases.Row::lease);
  }

  public static void check(Connection c, Fence fence, long nowMs) throws SQLException {
    Leases.check(c, fence, nowMs);
  }

  /**
   * The retained checkpoints of a run, newest first. Content that is missing or does not hash to
   * its logged digest is left out: this is an inspection view, {@code load} is the strict one.
   */
  public static List<RetainedCheckpoint> retained(
      Side marks, Side content, String taskId, String runId) {
    List<Marks.Retained> generations =
        marks.read("listing retained checkpoints", c -> Marks.retained(c, taskId, runId));
    return content.read(
        "reading retained checkpoints",
        c -> {
          List<RetainedCheckpoint> out = new ArrayList<>();
          for (Marks.Retained g : generations) {
            Optional<String> body = Contents.get(c, taskId, runId, g.digest());
            if (body.isPresent() && Canonical.sha256Hex(body.get()).equals(g.digest())) {
              out.add(new RetainedCheckpoint(g.generation(), g.digest(), body.get()));
            }
          }
          return out;
        });
  }
}
