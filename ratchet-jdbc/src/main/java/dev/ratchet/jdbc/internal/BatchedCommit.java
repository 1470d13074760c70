package dev.ratchet.jdbc.internal;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonString;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.StoredRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL schema version 17 (ADR 0141): the commits of several runs in one call of {@code
 * ratchet_commit_batch}, which calls {@code ratchet_commit} for each run in its own subtransaction.
 * The runs' values go as one array per argument, their records concatenated with a count per run. A
 * run's refusal comes back as its row's SQLSTATE and is mapped as {@link OneCallCommit} maps the
 * same error of a single call; the call itself failing fails every run.
 */
final class BatchedCommit {
  static final String SQL =
      "SELECT o_index, o_rows, o_judged_at_ms, o_state, o_message, o_detail FROM"
          + " ratchet_commit_batch(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

  private BatchedCommit() {}

  static List<Writes.BatchVerdict> commit(
      Connection c, List<CommitRequest> rs, List<String> digests, int retainOlder)
      throws SQLException {
    int n = rs.size();
    String[] tasks = new String[n];
    String[] runs = new String[n];
    String[] instances = new String[n];
    Long[] expected = new Long[n];
    String[] checkpoints = new String[n];
    String[] owners = new String[n];
    Long[] leaseVersions = new Long[n];
    byte[][] tokens = new byte[n][];
    Integer[] counts = new Integer[n];
    List<StoredRecord> records = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      CommitRequest r = rs.get(i);
      tasks[i] = r.scope().taskId();
      runs[i] = r.scope().runId();
      instances[i] = r.scope().environmentInstanceId();
      expected[i] = r.expectedGeneration();
      checkpoints[i] = r.checkpoint();
      owners[i] = r.fence().owner();
      leaseVersions[i] = r.fence().leaseVersion();
      tokens[i] = r.token().secret();
      counts[i] = r.records().size();
      records.addAll(r.records());
    }
    int m = records.size();
    String[] sets = new String[m];
    Long[] sequences = new Long[m];
    String[] keys = new String[m];
    String[] keyJson = new String[m];
    String[] bodies = new String[m];
    String[] chains = new String[m];
    for (int i = 0; i < m; i++) {
      StoredRecord rec = records.get(i);
      sets[i] = rec.set().wireName();
      sequences[i] = rec.sequence();
      keys[i] = rec.key();
      keyJson[i] = Canonical.string(new JsonString(rec.key()));
      bodies[i] = rec.body();
      chains[i] = rec.chain();
    }
    List<Writes.BatchVerdict> out = new ArrayList<>(n);
    try (PreparedStatement ps = c.prepareStatement(SQL)) {
      ps.setArray(1, c.createArrayOf("text", tasks));
      ps.setArray(2, c.createArrayOf("text", runs));
      ps.setArray(3, c.createArrayOf("text", instances));
      ps.setArray(4, c.createArrayOf("bigint", expected));
      ps.setArray(5, c.createArrayOf("text", digests.toArray(String[]::new)));
      ps.setArray(6, c.createArrayOf("text", checkpoints));
      ps.setArray(7, c.createArrayOf("text", owners));
      ps.setArray(8, c.createArrayOf("bigint", leaseVersions));
      ps.setArray(9, c.createArrayOf("bytea", tokens));
      ps.setInt(10, retainOlder);
      ps.setArray(11, c.createArrayOf("integer", counts));
      ps.setArray(12, c.createArrayOf("text", sets));
      ps.setArray(13, c.createArrayOf("bigint", sequences));
      ps.setArray(14, c.createArrayOf("text", keys));
      ps.setArray(15, c.createArrayOf("text", keyJson));
      ps.setArray(16, c.createArrayOf("text", bodies));
      ps.setArray(17, c.createArrayOf("text", chains));
      try (ResultSet rs2 = ps.executeQuery()) {
        while (rs2.next()) {
          int index = rs2.getInt(1);
          if (index != out.size() + 1) {
            throw Failures.internal("ratchet_commit_batch answered run " + index + " out of order");
          }
          String state = rs2.getString(4);
          out.add(
              state == null
                  ? new Writes.BatchVerdict(new Writes.Advance(rs2.getInt(2), rs2.getLong(3)), null)
                  : new Writes.BatchVerdict(
                      null, refusal(state, rs2.getString(5), rs2.getString(6))));
        }
      }
    }
    if (out.size() != n) {
      throw Failures.internal("ratchet_commit_batch answered " + out.size() + " of " + n + " runs");
    }
    return out;
  }

  /**
   * What the same error of a single {@code ratchet_commit} call becomes ({@link OneCallCommit}).
   */
  private static RatchetException refusal(String state, String message, String detail) {
    if (OneCallCommit.RECORD_REFUSED.equals(state)) {
      return RatchetException.contract(message);
    }
    if (OneCallCommit.UNIQUE_VIOLATION.equals(state)) {
      return RatchetException.contract(
          "a record's key already exists in its set: " + (detail != null ? detail : message));
    }
    return Failures.unavailable(
        "committing failed in a batched call", new SQLException(message, state));
  }
}
