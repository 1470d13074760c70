package dev.ratchet.jdbc.internal;

import dev.ratchet.error.RatchetException;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * SQLite's commit of a batch (one request, or a group commit's many) with what can be shared across
 * its requests shared (issue 38): one read of every set head the batch appends to ({@link
 * PaddedRows}: 64 heads a statement), no savepoint per request, and per run one prune of the log
 * and one of the content. Each request keeps its own compare-and-set, in (task, run) order, whose
 * row count is its verdict alone; the winners' log rows, records and content follow, each row its
 * own statement: one insert of several rows ({@code VALUES (…), (…)}) measured slower here than as
 * many single-row inserts of the same prepared statement (BENCHMARKS.md). The rows stored are those
 * the request-by-request path stores.
 *
 * <p>A request's records are checked before its compare-and-set, against the heads read and the
 * records of the batch's earlier winners: each must continue its set's chain and repeat no key of
 * its set. One that does not is refused ({@code CONTRACT}) only if its compare-and-set would have
 * won: that compare-and-set runs inside a savepoint rolled back at once, so the order of verdicts
 * (generation, fence, instance, then the records) is the contract's. A key already stored is seen
 * only by the unique index, when a winner's record is inserted: the transaction is then rolled back
 * and begun again, and the caller applies the batch request by request, which refuses that request
 * alone and names the key.
 */
final class SqliteBatch {
  private static final String SAVEPOINT = "ratchet_refused";

  /**
   * The last record of each listed set: the row whose sequence is the set's largest. Rows of NULL
   * parameters (padding) match nothing.
   */
  private static final Map<Integer, String> HEADS =
      texts(
          n ->
              "SELECT k.column1, r.sequence, r.chain FROM ("
                  + PaddedRows.values(n, 4)
                  + ") k JOIN ratchet_records r ON r.task_id = k.column2 AND r.run_id = k.column3"
                  + " AND r.set_name = k.column4 AND r.sequence = (SELECT max(m.sequence)"
                  + " FROM ratchet_records m WHERE m.task_id = k.column2"
                  + " AND m.run_id = k.column3 AND m.set_name = k.column4)");

  private SqliteBatch() {}

  /** One set of one run. */
  private record SetKey(String taskId, String runId, RecordSet set) {
    static SetKey of(CommitRequest r, RecordSet set) {
      return new SetKey(r.scope().taskId(), r.scope().runId(), set);
    }
  }

  /** One run. */
  private record RunKey(String taskId, String runId) {}

  /**
   * Applies {@code batch} in {@code order} inside the open write transaction on {@code c}; outcomes
   * in request order. Returns null when a record's key was already stored: the transaction has then
   * been rolled back and begun again, and nothing of the batch is applied.
   */
  static List<Committer.Applied> apply(
      Connection c,
      Side marks,
      List<CommitRequest> batch,
      List<String> digests,
      List<Integer> order,
      int retainOlder,
      boolean split)
      throws SQLException {
    Map<SetKey, SetHead> heads = heads(c, batch);
    Map<SetKey, Set<String>> keys = new HashMap<>();
    Committer.Applied[] out = new Committer.Applied[batch.size()];
    List<Integer> winners = new ArrayList<>();
    for (int i : order) {
      CommitRequest r = batch.get(i);
      Map<SetKey, SetHead> after = new HashMap<>();
      RatchetException broken = broken(r, heads, keys, after);
      long now = marks.now(c);
      if (broken != null) {
        out[i] = refuse(c, r, digests.get(i), now, broken);
        continue;
      }
      int rows = Marks.compareAndSet(c, r, digests.get(i), now);
      if (rows == 0) {
        out[i] = explained(c, r, now);
        continue;
      }
      Leases.requireOne(rows, "mark compare-and-set");
      heads.putAll(after);
      for (StoredRecord record : r.records()) {
        keys.computeIfAbsent(SetKey.of(r, record.set()), k -> new HashSet<>()).add(record.key());
      }
      winners.add(i);
    }
    if (winners.isEmpty()) {
      return List.of(out);
    }
    Map<RunKey, CommitRequest> lastOfRun = new LinkedHashMap<>();
    for (int i : winners) {
      CommitRequest r = batch.get(i);
      lastOfRun.put(new RunKey(r.scope().taskId(), r.scope().runId()), r);
    }
    for (int i : winners) {
      CommitRequest r = batch.get(i);
      Marks.log(c, r.scope().taskId(), r.scope().runId(), r.nextGeneration(), digests.get(i));
    }
    for (CommitRequest r : lastOfRun.values()) {
      Marks.pruneLog(c, r.scope().taskId(), r.scope().runId(), r.nextGeneration() - retainOlder);
    }
    try {
      records(c, batch, winners);
    } catch (SQLException e) {
      if (!marks.dialect().isUniqueViolation(e)) {
        throw e;
      }
      restart(c, marks.dialect());
      return null;
    }
    if (!split) {
      for (int i : winners) {
        CommitRequest r = batch.get(i);
        Contents.put(
            c,
            r.scope().taskId(),
            r.scope().runId(),
            digests.get(i),
            r.nextGeneration(),
            r.checkpoint());
      }
      for (CommitRequest r : lastOfRun.values()) {
        Contents.pruneUnlogged(c, r.scope().taskId(), r.scope().runId(), r.nextGeneration());
      }
    }
    for (int i : winners) {
      CommitRequest r = batch.get(i);
      out[i] =
          new Committer.Applied(
              new CommitResult.Committed(r.nextGeneration()),
              null,
              split ? retained(c, r, retainOlder) : List.of());
    }
    return List.of(out);
  }

  /**
   * Why {@code r}'s records cannot follow the heads (and the keys the batch's earlier winners
   * appended), or null; fills {@code after} with the heads its records would leave.
   */
  private static RatchetException broken(
      CommitRequest r,
      Map<SetKey, SetHead> heads,
      Map<SetKey, Set<String>> keys,
      Map<SetKey, SetHead> after) {
    Map<SetKey, Set<String>> own = new HashMap<>();
    for (StoredRecord record : r.records()) {
      SetKey k = SetKey.of(r, record.set());
      SetHead h = after.getOrDefault(k, heads.get(k));
      try {
        Records.requireContinues(h, record);
      } catch (RatchetException e) {
        return e;
      }
      boolean repeated =
          keys.getOrDefault(k, Set.of()).contains(record.key())
              || !own.computeIfAbsent(k, x -> new HashSet<>()).add(record.key());
      if (repeated) {
        return RatchetException.contract(
            "record " + record.set().wireName() + " key '" + record.key() + "' already exists");
      }
      after.put(k, new SetHead(record.sequence(), record.chain()));
    }
    return null;
  }

  /**
   * A request whose records are refused: its compare-and-set decides, in a savepoint that is rolled
   * back, whether the refusal is the generation or fence (as without records) or the records.
   */
  private static Committer.Applied refuse(
      Connection c, CommitRequest r, String digest, long now, RatchetException broken)
      throws SQLException {
    execute(c, "SAVEPOINT " + SAVEPOINT);
    try {
      int rows = Marks.compareAndSet(c, r, digest, now);
      return rows == 0 ? explained(c, r, now) : new Committer.Applied(null, broken, List.of());
    } finally {
      execute(c, "ROLLBACK TO SAVEPOINT " + SAVEPOINT);
      execute(c, "RELEASE SAVEPOINT " + SAVEPOINT);
    }
  }

  /** A compare-and-set that matched no row, explained; it wrote nothing. */
  private static Committer.Applied explained(Connection c, CommitRequest r, long now)
      throws SQLException {
    try {
      return new Committer.Applied(Committer.explainRefusal(c, r, now), null, List.of());
    } catch (RatchetException e) {
      return new Committer.Applied(null, e, List.of());
    }
  }

  /** The heads of every set the batch appends to, read in shared statements. */
  private static Map<SetKey, SetHead> heads(Connection c, List<CommitRequest> batch)
      throws SQLException {
    Set<SetKey> wanted = new LinkedHashSet<>();
    for (CommitRequest r : batch) {
      for (StoredRecord record : r.records()) {
        wanted.add(SetKey.of(r, record.set()));
      }
    }
    List<SetKey> sets = new ArrayList<>(wanted);
    Map<SetKey, SetHead> heads = new HashMap<>();
    for (SetKey k : sets) {
      heads.put(k, SetHead.EMPTY);
    }
    for (int from = 0; from < sets.size(); ) {
      int n = PaddedRows.take(sets.size() - from);
      try (PreparedStatement ps = c.prepareStatement(HEADS.get(PaddedRows.size(n)))) {
        for (int j = 0; j < n; j++) {
          SetKey k = sets.get(from + j);
          ps.setInt(4 * j + 1, j);
          ps.setString(4 * j + 2, k.taskId());
          ps.setString(4 * j + 3, k.runId());
          ps.setString(4 * j + 4, k.set().wireName());
        }
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            SetKey k = sets.get(from + rs.getInt(1));
            try {
              heads.put(k, new SetHead(rs.getLong(2), rs.getString(3)));
            } catch (RuntimeException e) {
              throw Failures.corrupt("stored head of " + k.set().wireName() + " is malformed", e);
            }
          }
        }
      }
      from += n;
    }
    return heads;
  }

  /** The winners' records, in the order of the winners and of their records. */
  private static void records(Connection c, List<CommitRequest> batch, List<Integer> winners)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(Records.INSERT)) {
      for (int i : winners) {
        CommitRequest r = batch.get(i);
        for (StoredRecord record : r.records()) {
          Records.bind(ps, r.scope().taskId(), r.scope().runId(), record);
          Leases.requireOne(ps.executeUpdate(), "record insert");
        }
      }
    }
  }

  /** Split store: the digests the log retains for {@code r}'s window (the content side prunes). */
  private static List<String> retained(Connection c, CommitRequest r, int retainOlder)
      throws SQLException {
    return Marks.retained(
            c, r.scope().taskId(), r.scope().runId(), r.nextGeneration() - retainOlder)
        .stream()
        .map(Marks.Retained::digest)
        .toList();
  }

  /** Rolls the transaction back and begins another: the batch is applied again from scratch. */
  private static void restart(Connection c, Dialect d) throws SQLException {
    if (!d.rollback(c)) {
      throw new SQLException("rolling back a batch that met a stored record key failed");
    }
    d.beginWrite(c);
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.execute();
    }
  }

  /** Branch {@code j} of the heads read: the last record of one set, tagged with {@code j}. */
  private static String headsSql(int n) {
    List<String> branches = new ArrayList<>();
    for (int j = 0; j < n; j++) {
      branches.add(
          "SELECT * FROM (SELECT "
              + j
              + " AS i, sequence, chain FROM ratchet_records"
              + " WHERE task_id = ? AND run_id = ? AND set_name = ?"
              + " ORDER BY sequence DESC LIMIT 1)");
    }
    return String.join(" UNION ALL ", branches);
  }

  private static Map<Integer, String> texts(java.util.function.IntFunction<String> sql) {
    Map<Integer, String> out = new HashMap<>();
    for (int size : PaddedRows.SIZES) {
      out.put(size, sql.apply(size));
    }
    return Map.copyOf(out);
  }
}
