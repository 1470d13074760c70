package dev.ratchet.jdbc.internal;

import dev.ratchet.error.RatchetException;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.RecordChain;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The growing sets (SPEC D6) in {@code ratchet_records}: appended only inside a commit, each record
 * checked to continue its set's stored chain, and read by index (key or sequence range).
 */
final class Records {
  private static final String COLUMNS = "set_name, sequence, record_key, body, chain";

  /** One record, bound as in {@link #bind}. */
  static final String INSERT =
      "INSERT INTO ratchet_records (task_id, run_id, " + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?)";

  private Records() {}

  static SetHead head(Connection c, String taskId, String runId, RecordSet set)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT sequence, chain FROM ratchet_records"
                + " WHERE task_id = ? AND run_id = ? AND set_name = ?"
                + " ORDER BY sequence DESC LIMIT 1")) {
      ps.setString(1, taskId);
      ps.setString(2, runId);
      ps.setString(3, set.wireName());
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return SetHead.EMPTY;
        }
        try {
          return new SetHead(rs.getLong(1), rs.getString(2));
        } catch (RuntimeException e) {
          throw Failures.corrupt("stored head of " + set.wireName() + " is malformed", e);
        }
      }
    }
  }

  static Map<RecordSet, SetHead> heads(Connection c, String taskId, String runId)
      throws SQLException {
    Map<RecordSet, SetHead> heads = new EnumMap<>(RecordSet.class);
    for (RecordSet s : RecordSet.values()) {
      heads.put(s, head(c, taskId, runId, s));
    }
    return heads;
  }

  /**
   * Appends {@code records}, refusing ({@code CONTRACT}) any that does not continue its set's
   * stored chain or repeats a key. The caller rolls the commit back on refusal.
   */
  static void append(
      Connection c, Dialect d, String taskId, String runId, List<StoredRecord> records)
      throws SQLException {
    append(c, d, taskId, runId, records, null);
  }

  /**
   * {@link #append(Connection, Dialect, String, String, List)}; with a {@code holder}, each row
   * goes through {@code ratchet_append} under the holder's fence and token (PostgreSQL, where a
   * worker role may not INSERT into the table).
   */
  static void append(
      Connection c,
      Dialect d,
      String taskId,
      String runId,
      List<StoredRecord> records,
      CommitRequest holder)
      throws SQLException {
    if (records.isEmpty()) {
      return;
    }
    Map<RecordSet, SetHead> heads = new EnumMap<>(RecordSet.class);
    String sql = holder == null ? INSERT : "SELECT ratchet_append(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (StoredRecord r : records) {
        SetHead h = heads.get(r.set());
        if (h == null) {
          h = head(c, taskId, runId, r.set());
        }
        requireContinues(h, r);
        bind(ps, taskId, runId, r);
        if (holder != null) {
          ps.setString(8, holder.fence().owner());
          ps.setLong(9, holder.fence().leaseVersion());
          ps.setBytes(10, holder.token().secret());
        }
        try {
          ps.execute();
        } catch (SQLException e) {
          if (d.isUniqueViolation(e)) {
            throw RatchetException.contract(
                "record " + r.set().wireName() + " key '" + r.key() + "' already exists");
          }
          throw e;
        }
        heads.put(r.set(), new SetHead(r.sequence(), r.chain()));
      }
    }
  }

  /** Binds {@link #INSERT}'s seven parameters. */
  static void bind(PreparedStatement ps, String taskId, String runId, StoredRecord r)
      throws SQLException {
    ps.setString(1, taskId);
    ps.setString(2, runId);
    ps.setString(3, r.set().wireName());
    ps.setLong(4, r.sequence());
    ps.setString(5, r.key());
    ps.setString(6, r.body());
    ps.setString(7, r.chain());
  }

  /** Refuses ({@code CONTRACT}) a record that does not continue the set whose head is {@code h}. */
  static void requireContinues(SetHead h, StoredRecord r) {
    String expected = RecordChain.next(h.head(), r.set(), h.count() + 1, r.key(), r.body());
    if (r.sequence() != h.count() + 1 || !expected.equals(r.chain())) {
      throw RatchetException.contract(
          "record "
              + r.set().wireName()
              + "#"
              + r.sequence()
              + " does not continue its chain (stored count "
              + h.count()
              + ")");
    }
  }

  static Optional<StoredRecord> find(
      Connection c, String taskId, String runId, RecordSet set, String key) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT "
                + COLUMNS
                + " FROM ratchet_records"
                + " WHERE task_id = ? AND run_id = ? AND set_name = ? AND record_key = ?")) {
      ps.setString(1, taskId);
      ps.setString(2, runId);
      ps.setString(3, set.wireName());
      ps.setString(4, key);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(row(rs)) : Optional.empty();
      }
    }
  }

  static boolean hasKey(Connection c, String taskId, String runId, RecordSet set, String key)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT 1 FROM ratchet_records"
                + " WHERE task_id = ? AND run_id = ? AND set_name = ? AND record_key = ?")) {
      ps.setString(1, taskId);
      ps.setString(2, runId);
      ps.setString(3, set.wireName());
      ps.setString(4, key);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  static List<StoredRecord> page(
      Connection c, String taskId, String runId, RecordSet set, long from, int limit)
      throws SQLException {
    List<StoredRecord> out = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT "
                + COLUMNS
                + " FROM ratchet_records"
                + " WHERE task_id = ? AND run_id = ? AND set_name = ? AND sequence >= ?"
                + " ORDER BY sequence LIMIT ?")) {
      ps.setString(1, taskId);
      ps.setString(2, runId);
      ps.setString(3, set.wireName());
      ps.setLong(4, from);
      ps.setInt(5, limit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(row(rs));
        }
      }
    }
    return out;
  }

  private static StoredRecord row(ResultSet rs) throws SQLException {
    String set = rs.getString(1);
    long sequence = rs.getLong(2);
    try {
      return new StoredRecord(
          RecordSet.fromWireName(set), sequence, rs.getString(3), rs.getString(4), rs.getString(5));
    } catch (RuntimeException e) {
      throw Failures.corrupt("stored record " + set + "#" + sequence + " is malformed", e);
    }
  }
}
