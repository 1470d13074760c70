package dev.ratchet.jdbc.internal;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonString;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.RunScope;
import dev.ratchet.store.StoredRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.postgresql.util.PSQLException;

/**
 * PostgreSQL schema version 5, leaner since versions 7 and 8 (ADR 0043): a whole commit of one run
 * as one call of {@code ratchet_commit}, so it costs one statement and one round trip. The function
 * checks token, fence, instance and generation, writes the records (a repeated sequence or key is
 * refused by the indexes) and the content and prunes what retention no longer keeps. Since version
 * 19 (D34, ADR 0045) it no longer recomputes links or the content's digest: the readers
 * authenticate both (D20). The SQL text is constant, so pgjdbc's per-connection statement cache
 * turns it into a named server-side prepared statement after {@code prepareThreshold} (default 5)
 * executions on a pooled connection and from then on sends only Bind/Execute.
 */
final class OneCallCommit {
  static final String SQL =
      "SELECT o_rows, o_judged_at_ms FROM ratchet_commit"
          + "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

  /** Versions 5–17's refusal of a record whose link does not continue its chain. */
  static final String RECORD_REFUSED = "RT422";

  /** A record whose key its set already holds (the unique index, since schema version 7). */
  static final String UNIQUE_VIOLATION = "23505";

  private OneCallCommit() {}

  /** Runs the commit; a refused record rolls the call back and is {@code CONTRACT}. */
  static Writes.Advance commit(Connection c, CommitRequest r, String digest, int retainOlder)
      throws SQLException {
    RunScope s = r.scope();
    List<StoredRecord> records = r.records();
    int n = records.size();
    String[] sets = new String[n];
    Long[] sequences = new Long[n];
    String[] keys = new String[n];
    String[] keyJson = new String[n];
    String[] bodies = new String[n];
    String[] chains = new String[n];
    for (int i = 0; i < n; i++) {
      StoredRecord rec = records.get(i);
      sets[i] = rec.set().wireName();
      sequences[i] = rec.sequence();
      keys[i] = rec.key();
      keyJson[i] = Canonical.string(new JsonString(rec.key()));
      bodies[i] = rec.body();
      chains[i] = rec.chain();
    }
    try (PreparedStatement ps = c.prepareStatement(SQL)) {
      ps.setString(1, s.taskId());
      ps.setString(2, s.runId());
      ps.setString(3, s.environmentInstanceId());
      ps.setLong(4, r.expectedGeneration());
      ps.setString(5, digest);
      ps.setString(6, r.checkpoint());
      ps.setString(7, r.fence().owner());
      ps.setLong(8, r.fence().leaseVersion());
      ps.setBytes(9, r.token().secret());
      ps.setInt(10, retainOlder);
      ps.setArray(11, c.createArrayOf("text", sets));
      ps.setArray(12, c.createArrayOf("bigint", sequences));
      ps.setArray(13, c.createArrayOf("text", keys));
      ps.setArray(14, c.createArrayOf("text", keyJson));
      ps.setArray(15, c.createArrayOf("text", bodies));
      ps.setArray(16, c.createArrayOf("text", chains));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return new Writes.Advance(rs.getInt(1), rs.getLong(2));
      }
    } catch (SQLException e) {
      if (RECORD_REFUSED.equals(e.getSQLState())) {
        throw RatchetException.contract(Failures.serverMessage(e));
      }
      if (UNIQUE_VIOLATION.equals(e.getSQLState())) {
        throw RatchetException.contract("a record's key already exists in its set: " + detail(e));
      }
      throw e;
    }
  }

  /** The server's detail ("Key (...)=(...) already exists."), else its message. */
  private static String detail(SQLException e) {
    if (e instanceof PSQLException p
        && p.getServerErrorMessage() != null
        && p.getServerErrorMessage().getDetail() != null) {
      return p.getServerErrorMessage().getDetail();
    }
    return Failures.serverMessage(e);
  }
}
