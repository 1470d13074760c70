package dev.ratchet.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.StoreOptions;
import dev.ratchet.jdbc.TraceAudit;
import dev.ratchet.json.Canonical;
import dev.ratchet.seam.Seams;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseToken;
import dev.ratchet.store.RecordChain;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.RunScope;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRecord;
import dev.ratchet.store.StoredRun;
import dev.ratchet.testkit.ManualClock;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQLite's batch commit with shared statements ({@link SqliteBatch}): one statement reads the set
 * heads of every run in the batch and no request needs a savepoint, each run keeps its own
 * compare-and-set verdict, and the rows stored are the ones the request-by-request path stores.
 */
class SqliteBatchTest {
  private static final String TASK = "task-b";
  private static final int RETAIN = 1;

  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(Instant.parse("2026-12-06T09:00:00Z"));
  private final List<Side> open = new ArrayList<>();

  @AfterEach
  void close() {
    open.forEach(Side::close);
  }

  private StoreOptions options() {
    return StoreOptions.defaults(clock).withOpenMode(OpenMode.CREATE).withRetainOlder(RETAIN);
  }

  private Side side(String name) {
    Side s = Side.open(Database.sqlite(dir.resolve(name + ".db")), options());
    open.add(s);
    return s;
  }

  /** One run written by the test: its lease, generation and set heads. */
  private static final class Writer {
    final String runId;
    final Lease lease;
    long generation;
    final Map<RecordSet, SetHead> heads = new EnumMap<>(RecordSet.class);

    Writer(Side side, ManualClock clock, String runId) {
      this.runId = runId;
      this.lease =
          side.write(
              "granting",
              c ->
                  Leases.grant(
                          c,
                          runId,
                          "w",
                          Duration.ofHours(1),
                          clock.millis(),
                          false,
                          LeaseToken.generate(Seams.secureEntropy()))
                      .orElseThrow());
    }

    /** The next commit: a trace event and a receipt, and a checkpoint naming the generation. */
    CommitRequest next() {
      return next(generation, "{\"run\":\"" + runId + "\",\"g\":" + (generation + 1) + "}");
    }

    CommitRequest next(long expected, String checkpoint) {
      List<StoredRecord> records = new ArrayList<>();
      for (RecordSet set : List.of(RecordSet.TRACE, RecordSet.RECEIPTS)) {
        SetHead h = heads.getOrDefault(set, SetHead.EMPTY);
        records.add(RecordChain.append(h, set, runId + "-" + (h.count() + 1), "{\"n\":1}"));
      }
      return new CommitRequest(
          new RunScope(TASK, runId, "env"), expected, lease, checkpoint, records);
    }

    /** Takes {@code r} as committed: the next request continues it. */
    void committed(CommitRequest r) {
      generation = r.nextGeneration();
      for (StoredRecord s : r.records()) {
        heads.put(s.set(), RecordChain.advance(heads.getOrDefault(s.set(), SetHead.EMPTY), s));
      }
    }
  }

  private List<Writer> writers(Side side, int n) {
    return IntStream.range(0, n).mapToObj(i -> new Writer(side, clock, "run-" + i)).toList();
  }

  /** Records the SQL of every statement executed through a connection. */
  private static final class Counting implements InvocationHandler {
    final Connection real;
    final List<String> executed = new ArrayList<>();

    Counting(Connection real) {
      this.real = real;
    }

    Connection connection() {
      return (Connection)
          Proxy.newProxyInstance(
              getClass().getClassLoader(), new Class<?>[] {Connection.class}, this);
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      Object result = call(real, method, args);
      if ("prepareStatement".equals(method.getName()) && args.length == 1) {
        String sql = (String) args[0];
        PreparedStatement ps = (PreparedStatement) result;
        return Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {PreparedStatement.class},
            (p, m, a) -> {
              if (m.getName().startsWith("execute")) {
                executed.add(sql);
              }
              return call(ps, m, a);
            });
      }
      return result;
    }

    long count(String prefix) {
      return executed.stream().filter(s -> s.startsWith(prefix)).count();
    }

    private static Object call(Object target, Method m, Object[] args) throws Throwable {
      try {
        return m.invoke(target, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    }
  }

  private static List<String> digests(List<CommitRequest> batch) {
    return batch.stream().map(r -> Canonical.sha256Hex(r.checkpoint())).toList();
  }

  /** Runs {@code batch} through {@link SqliteBatch} on a counting connection, in request order. */
  private List<Committer.Applied> applyCounted(
      Side side, List<CommitRequest> batch, Counting[] counting) {
    return side.write(
        "committing",
        c -> {
          counting[0] = new Counting(c);
          return SqliteBatch.apply(
              counting[0].connection(),
              side,
              batch,
              digests(batch),
              IntStream.range(0, batch.size()).boxed().toList(),
              RETAIN,
              false);
        });
  }

  /**
   * Per batch one read of all set heads and no savepoint; per request its compare-and-set, log row,
   * content row and one statement per record; per run one prune of the log and one of the content.
   * The request-by-request path sent 11 statements per request here (2 savepoint verbs, the
   * compare-and-set, 2 for the log, 2 head reads, 2 record inserts, 2 for the content): 88.
   */
  @Test
  void aBatchOfEightRunsReadsAllTheirSetHeadsInOneStatementAndTakesNoSavepoint() {
    Side side = side("eight");
    List<Writer> runs = writers(side, 8);
    List<CommitRequest> batch = runs.stream().map(Writer::next).toList();
    Counting[] counting = new Counting[1];

    List<Committer.Applied> out = applyCounted(side, batch, counting);

    assertThat(out)
        .extracting(Committer.Applied::result)
        .containsOnly(new CommitResult.Committed(1));
    Counting c = counting[0];
    assertThat(c.count("SELECT k.column1, r.sequence, r.chain FROM (VALUES"))
        .as("one read of the 16 set heads")
        .isEqualTo(1);
    assertThat(c.count("SELECT sequence, chain FROM ratchet_records")).isZero();
    assertThat(c.count("SAVEPOINT")).isZero();
    assertThat(c.count("INSERT INTO ratchet_marks")).as("a compare-and-set per run").isEqualTo(8);
    assertThat(c.count("INSERT INTO ratchet_records")).isEqualTo(16);
    assertThat(c.executed).hasSize(1 + 8 + 8 + 8 + 16 + 8 + 8);
    assertThat(records(side)).isEqualTo(16);
  }

  @Test
  void aLostRaceOrAFenceInsideTheBatchFailsOnlyItsRun() {
    Side side = side("lost");
    List<Writer> runs = writers(side, 6);
    for (Writer w : runs) {
      CommitRequest first = w.next();
      assertThat(commit(side, List.of(first)).get(0).result())
          .isEqualTo(new CommitResult.Committed(1));
      w.committed(first);
    }
    side.write(
        "releasing",
        c -> {
          Leases.release(c, runs.get(4).lease);
          return null;
        });
    List<CommitRequest> batch = new ArrayList<>(runs.stream().map(Writer::next).toList());
    batch.set(2, runs.get(2).next(0, "{\"stale\":true}")); // expects generation 0, the mark is at 1
    Counting[] counting = new Counting[1];

    List<Committer.Applied> out = applyCounted(side, batch, counting);

    assertThat(out.get(2).result()).isEqualTo(new CommitResult.LostRace(1));
    assertThat(out.get(4).result()).isInstanceOf(CommitResult.Fenced.class);
    for (int i : List.of(0, 1, 3, 5)) {
      assertThat(out.get(i).result()).isEqualTo(new CommitResult.Committed(2));
    }
    assertThat(counting[0].count("SELECT k.column1, r.sequence, r.chain FROM (VALUES"))
        .isEqualTo(1);
    assertThat(counting[0].count("SAVEPOINT")).isZero();
    assertThat(records(side)).as("12 of the first commits, 8 of the four winners").isEqualTo(20);
    side.close();
    try (JdbcStore store = reopen("lost")) {
      assertThat(store.load(TASK, "run-2").orElseThrow().generation()).isEqualTo(1);
      assertThat(store.load(TASK, "run-4").orElseThrow().generation()).isEqualTo(1);
      assertThat(store.load(TASK, "run-3").orElseThrow().generation()).isEqualTo(2);
      assertThat(store.records(TASK, "run-2", RecordSet.TRACE, 1, 10)).hasSize(1);
      assertAuthenticated(store, 6);
    }
  }

  @Test
  void brokenRecordsAreRefusedAloneAndOnlyWhenTheCompareAndSetWouldHaveWon() {
    Side side = side("broken");
    List<Writer> runs = writers(side, 4);
    List<CommitRequest> batch = new ArrayList<>(runs.stream().map(Writer::next).toList());
    runs.get(1).heads.put(RecordSet.TRACE, new SetHead(5, "a".repeat(64)));
    batch.set(1, runs.get(1).next()); // records on a head the store does not have
    runs.get(2).heads.put(RecordSet.TRACE, new SetHead(5, "a".repeat(64)));
    batch.set(2, runs.get(2).next(3, "{\"stale\":true}")); // broken, and its generation is wrong

    List<Committer.Applied> out = commit(side, batch);

    assertThat(out.get(0).result()).isEqualTo(new CommitResult.Committed(1));
    assertThat(out.get(1).refusal().code()).isEqualTo(ErrorCode.CONTRACT);
    assertThat(out.get(1).refusal().getMessage()).contains("does not continue its chain");
    assertThat(out.get(2).result()).isEqualTo(new CommitResult.LostRace(0));
    assertThat(out.get(3).result()).isEqualTo(new CommitResult.Committed(1));
    assertThat(records(side)).isEqualTo(4);
  }

  @Test
  void aKeyAlreadyStoredIsRefusedForItsRunAloneAndNamed() {
    Side side = side("key");
    List<Writer> runs = writers(side, 3);
    CommitRequest first = runs.get(1).next();
    commit(side, List.of(first));
    runs.get(1).committed(first);
    // The next trace record of run-1 continues its chain but repeats its first key.
    SetHead h = runs.get(1).heads.get(RecordSet.TRACE);
    StoredRecord repeated = RecordChain.append(h, RecordSet.TRACE, "run-1-1", "{\"n\":2}");
    CommitRequest bad =
        new CommitRequest(
            new RunScope(TASK, "run-1", "env"),
            1,
            runs.get(1).lease,
            "{\"bad\":1}",
            List.of(repeated));
    List<CommitRequest> batch = List.of(runs.get(0).next(), bad, runs.get(2).next());

    List<Committer.Applied> out = commit(side, batch);

    assertThat(out.get(0).result()).isEqualTo(new CommitResult.Committed(1));
    assertThat(out.get(1).refusal().code()).isEqualTo(ErrorCode.CONTRACT);
    assertThat(out.get(1).refusal().getMessage()).contains("'run-1-1' already exists");
    assertThat(out.get(2).result()).isEqualTo(new CommitResult.Committed(1));
    assertThat(records(side)).isEqualTo(6);
  }

  @Test
  void twoCommitsOfOneRunInABatchChainAndShareOneContentRow() {
    Side side = side("twice");
    Writer w = writers(side, 1).get(0);
    CommitRequest a = w.next(0, "{\"same\":true}");
    w.committed(a);
    CommitRequest b = w.next(1, "{\"same\":true}");

    List<Committer.Applied> out = commit(side, List.of(a, b));

    assertThat(out)
        .extracting(Committer.Applied::result)
        .containsExactly(new CommitResult.Committed(1), new CommitResult.Committed(2));
    side.close();
    try (JdbcStore store = reopen("twice")) {
      StoredRun run = store.load(TASK, "run-0").orElseThrow();
      assertThat(run.generation()).isEqualTo(2);
      assertThat(run.head(RecordSet.TRACE).count()).isEqualTo(2);
      assertAuthenticated(store, 1);
    }
  }

  /**
   * The same batches, shared and request by request (the statements of {@link Committer}'s
   * per-request path), leave the same rows in every table: stored bytes do not change.
   */
  @Test
  void theSharedPathStoresTheRowsTheRequestByRequestPathStores() throws SQLException {
    Side shared = side("shared");
    Side single = side("single");
    List<Writer> a = writers(shared, 5);
    List<Writer> b = writers(single, 5);
    for (int round = 0; round < 6; round++) {
      List<CommitRequest> batchA = new ArrayList<>();
      List<CommitRequest> batchB = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        // run-3 commits the same text every time (content dedup); run-4 loses every other race.
        String text = i == 3 ? "{\"fixed\":1}" : "{\"run\":" + i + ",\"g\":" + round + "}";
        long stale = i == 4 && round % 2 == 1 ? 1 : 0;
        batchA.add(a.get(i).next(a.get(i).generation - stale, text));
        batchB.add(b.get(i).next(b.get(i).generation - stale, text));
      }
      List<Committer.Applied> outA = commit(shared, batchA);
      List<Committer.Applied> outB = oneByOne(single, batchB);
      for (int i = 0; i < 5; i++) {
        assertThat(outA.get(i).result()).isEqualTo(outB.get(i).result());
        if (outA.get(i).result().kind() == CommitResult.Kind.COMMITTED) {
          a.get(i).committed(batchA.get(i));
          b.get(i).committed(batchB.get(i));
        }
      }
    }
    for (String table :
        List.of(
            "ratchet_marks ORDER BY task_id, run_id",
            "ratchet_generations ORDER BY task_id, run_id, generation",
            "ratchet_checkpoints ORDER BY task_id, run_id, content_digest",
            "ratchet_records ORDER BY task_id, run_id, set_name, sequence")) {
      assertThat(rows(shared, table)).as(table).isNotEmpty().isEqualTo(rows(single, table));
    }
  }

  /** Through the committer, as a group-commit batch goes (including its fallback). */
  private static List<Committer.Applied> commit(Side side, List<CommitRequest> batch) {
    List<Committer.Outcome> outcomes =
        new Committer(side, side, side.options()).commit(new ArrayList<>(batch));
    return outcomes.stream()
        .map(
            o ->
                o.failure() == null
                    ? new Committer.Applied(o.result(), null, List.of())
                    : new Committer.Applied(null, (RatchetException) o.failure(), List.of()))
        .toList();
  }

  /** The request-by-request path's statements, each request in its own transaction. */
  private static List<Committer.Applied> oneByOne(Side side, List<CommitRequest> batch) {
    List<Committer.Applied> out = new ArrayList<>();
    for (CommitRequest r : batch) {
      String digest = Canonical.sha256Hex(r.checkpoint());
      out.add(
          side.write(
              "committing",
              c -> {
                Writes w = InlineWrites.INSTANCE;
                Writes.Advance v = w.advance(c, side, r, digest, RETAIN);
                if (v.rows() == 0) {
                  return new Committer.Applied(
                      Committer.explainRefusal(c, r, v.judgedAtMs()), null, List.of());
                }
                w.append(c, side.dialect(), r);
                w.putContent(c, r, digest);
                w.pruneUnlogged(c, r);
                return new Committer.Applied(
                    new CommitResult.Committed(r.nextGeneration()), null, List.of());
              }));
    }
    return out;
  }

  private static long records(Side side) {
    return side.read(
        "counting",
        c -> {
          try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM ratchet_records");
              ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
          }
        });
  }

  private static List<List<Object>> rows(Side side, String tableAndOrder) {
    return side.read(
        "reading " + tableAndOrder,
        c -> {
          List<List<Object>> out = new ArrayList<>();
          try (PreparedStatement ps = c.prepareStatement("SELECT * FROM " + tableAndOrder);
              ResultSet rs = ps.executeQuery()) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
              List<Object> row = new ArrayList<>();
              for (int i = 1; i <= md.getColumnCount(); i++) {
                row.add(rs.getObject(i));
              }
              out.add(row);
            }
          }
          return out;
        });
  }

  private JdbcStore reopen(String name) {
    return JdbcStore.open(
        Database.sqlite(dir.resolve(name + ".db")),
        StoreOptions.defaults(clock).withRetainOlder(RETAIN));
  }

  /** Every run loads (content re-hashed against the mark) and its trace audits intact. */
  private static void assertAuthenticated(JdbcStore store, int runs) {
    for (int i = 0; i < runs; i++) {
      StoredRun run = store.load(TASK, "run-" + i).orElseThrow();
      assertThat(TraceAudit.verify(store, TASK, "run-" + i, run.head(RecordSet.TRACE)).intact())
          .isTrue();
    }
  }
}
