package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.Lease;
import dev.ratchet.store.RecordChain;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRecord;
import dev.ratchet.testkit.SimulatedCrash;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Schema version 17 (ADR 0141): with group commit on, the queued commits of several runs go to
 * PostgreSQL as one call of {@code ratchet_commit_batch}, each run in its own subtransaction. A
 * batch is shaped by holding the writer's previous, lone commit on a row lock this test takes, so
 * the next requests queue behind it. {@code ratchet_commit} is then revoked from the worker: the
 * batch can only have committed through the batch function (which calls it as its owner).
 */
@RequiresPostgres
class PostgresBatchedCommitTest {
  private final AtomicReference<CrashPoint> crashAt = new AtomicReference<>();
  private PgSchema schema;
  private JdbcStore store;
  private ExecutorService pool;

  @BeforeEach
  void open() {
    schema = PgSchema.create();
    store =
        JdbcStore.open(
            schema.worker(),
            PgSchema.options()
                .withGroupCommit(true)
                .withCrashSeam(
                    p -> {
                      if (p == crashAt.get()) {
                        throw new SimulatedCrash(p);
                      }
                    }));
    pool = Executors.newCachedThreadPool();
  }

  @AfterEach
  void close() {
    pool.shutdownNow();
    store.close();
    schema.close();
  }

  private Future<CommitResult> submit(CommitRequest r) {
    return pool.submit(() -> store.commit(r));
  }

  private static Throwable failureOf(Future<CommitResult> f) throws Exception {
    try {
      f.get(30, TimeUnit.SECONDS);
      return null;
    } catch (ExecutionException e) {
      return e.getCause();
    }
  }

  /**
   * Holds {@code holder}'s next commit on the server (its mark row locked by this test) until the
   * writer has {@code queued} more requests waiting; then lets it go. The requests queued meanwhile
   * form the next batch.
   */
  private CommitResult holdWhileQueueing(
      TestRun holder, Runnable queue, int queued, boolean onlyTheBatchFunction) throws Exception {
    try (Connection admin = Postgres.connect(Postgres.URL, Postgres.ADMIN)) {
      admin.setAutoCommit(false);
      try (PreparedStatement ps =
          admin.prepareStatement(
              "SELECT 1 FROM " + schema.name + ".ratchet_marks WHERE run_id = ? FOR UPDATE")) {
        ps.setString(1, holder.runId);
        ps.executeQuery().close();
      }
      Future<CommitResult> held = submit(holder.next(1));
      awaitBlocked();
      queue.run();
      long deadline = System.currentTimeMillis() + 30_000;
      while (store.queuedCommits() < queued) {
        if (System.currentTimeMillis() > deadline) {
          throw new IllegalStateException("only " + store.queuedCommits() + " queued");
        }
        LockSupport.parkNanos(1_000_000);
      }
      if (onlyTheBatchFunction) {
        // Only the batch function may commit what queued now.
        schema.exec(
            "REVOKE EXECUTE ON FUNCTION "
                + schema.name
                + ".ratchet_commit(text, text, text, bigint, text, text, text, bigint, bytea,"
                + " integer, text[], bigint[], text[], text[], text[], text[]) FROM "
                + Postgres.WORKER);
      }
      admin.commit();
      return held.get(30, TimeUnit.SECONDS);
    }
  }

  /** Waits until the worker's commit waits on this test's row lock. */
  private void awaitBlocked() throws Exception {
    long deadline = System.currentTimeMillis() + 30_000;
    try (Connection admin = Postgres.connect(Postgres.URL, Postgres.ADMIN);
        PreparedStatement ps =
            admin.prepareStatement(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    + " AND usename = ? AND query LIKE '%ratchet_commit%'")) {
      ps.setString(1, Postgres.WORKER);
      while (true) {
        try (var rs = ps.executeQuery()) {
          rs.next();
          if (rs.getInt(1) > 0) {
            return;
          }
        }
        if (System.currentTimeMillis() > deadline) {
          throw new IllegalStateException("the held commit never waited on the lock");
        }
        LockSupport.parkNanos(5_000_000);
      }
    }
  }

  @Test
  void aRefusalInsideABatchFailsOnlyItsRunAndTheOthersCommitInOneCall() throws Exception {
    assertThat(store.schemaVersion()).isGreaterThanOrEqualTo(17);
    TestRun a = new TestRun(store, store, "run-a").commit(1);
    TestRun b = new TestRun(store, store, "run-b").commit(1);
    TestRun c = new TestRun(store, store, "run-c").commit(1);
    TestRun d = new TestRun(store, store, "run-d").commit(1);
    TestRun e = new TestRun(store, store, "run-e").commit(1);
    TestRun f = new TestRun(store, store, "run-f").commit(1);
    TestRun g = new TestRun(store, store, "run-g");
    StoredRecord firstUse = RecordChain.append(SetHead.EMPTY, RecordSet.ACTION_IDS, "act-1", "{}");
    g.commitOn(
        store,
        new CommitRequest(
            g.scope(), 0, g.lease, TestRun.checkpoint("run-g", 1, g.trace), List.of(firstUse)));
    TestRun holder = new TestRun(store, store, "run-hold").commit(1);
    CommitStats before = store.stats();
    AtomicReference<List<Future<CommitResult>>> futures = new AtomicReference<>();
    Lease later =
        new Lease(
            f.lease.runId(),
            f.lease.owner(),
            f.lease.version() + 1,
            f.lease.expiresAt(),
            f.lease.token());
    CommitResult held =
        holdWhileQueueing(
            holder,
            () -> {
              CommitRequest stale =
                  new CommitRequest(c.scope(), 0, c.lease, "{\"old\":1}", List.of());
              // d chains its records on the wrong head: sequence 1 again, which the primary key
              // refuses (since version 19 the commit leaves links to the readers, ADR 0045)
              d.trace = SetHead.EMPTY;
              CommitRequest goodF = f.next(1);
              CommitRequest fenced =
                  new CommitRequest(goodF.scope(), 1, later, goodF.checkpoint(), goodF.records());
              // g uses its action id again, chained correctly: the set's unique key refuses it.
              StoredRecord reuse =
                  RecordChain.append(
                      RecordChain.advance(SetHead.EMPTY, firstUse),
                      RecordSet.ACTION_IDS,
                      "act-1",
                      "{\"again\":true}");
              CommitRequest used =
                  new CommitRequest(
                      g.scope(),
                      1,
                      g.lease,
                      TestRun.checkpoint("run-g", 2, g.trace),
                      List.of(reuse));
              futures.set(
                  List.of(
                      submit(a.next(2)),
                      submit(b.next(1)),
                      submit(stale),
                      submit(d.next(1)),
                      submit(e.next(1)),
                      submit(e.next(1)),
                      submit(fenced),
                      submit(used)));
            },
            8,
            true);
    assertThat(held).isEqualTo(new CommitResult.Committed(2));
    List<Future<CommitResult>> fs = futures.get();
    assertThat(fs.get(0).get(30, TimeUnit.SECONDS)).isEqualTo(new CommitResult.Committed(2));
    assertThat(fs.get(1).get(30, TimeUnit.SECONDS)).isEqualTo(new CommitResult.Committed(2));
    assertThat(fs.get(2).get(30, TimeUnit.SECONDS)).isEqualTo(new CommitResult.LostRace(1));
    Throwable refused = failureOf(fs.get(3));
    assertThat(refused).isInstanceOf(RatchetException.class);
    assertThat(((RatchetException) refused).code()).isEqualTo(ErrorCode.CONTRACT);
    assertThat(refused.getMessage()).contains("already exists").contains("run-d, trace, 1)");
    assertThat(List.of(fs.get(4).get(30, TimeUnit.SECONDS), fs.get(5).get(30, TimeUnit.SECONDS)))
        .containsExactlyInAnyOrder(new CommitResult.Committed(2), new CommitResult.LostRace(2));
    assertThat(fs.get(6).get(30, TimeUnit.SECONDS)).isInstanceOf(CommitResult.Fenced.class);
    Throwable reused = failureOf(fs.get(7));
    assertThat(reused).isInstanceOf(RatchetException.class);
    assertThat(((RatchetException) reused).code()).isEqualTo(ErrorCode.CONTRACT);
    assertThat(reused.getMessage()).contains("already exists in its set").contains("act-1");

    CommitStats after = store.stats();
    assertThat(after.transactions() - before.transactions()).isEqualTo(2);
    assertThat(after.requests() - before.requests()).isEqualTo(9);
    assertThat(after.largestBatch()).isEqualTo(8);
    assertThat(store.load(TestRun.TASK, "run-a").orElseThrow().head(RecordSet.TRACE).count())
        .isEqualTo(3);
    assertThat(store.load(TestRun.TASK, "run-b").orElseThrow().generation()).isEqualTo(2);
    assertThat(store.load(TestRun.TASK, "run-c").orElseThrow().generation()).isEqualTo(1);
    assertThat(store.load(TestRun.TASK, "run-d").orElseThrow().generation()).isEqualTo(1);
    assertThat(store.load(TestRun.TASK, "run-d").orElseThrow().head(RecordSet.TRACE).count())
        .isEqualTo(1);
    assertThat(store.load(TestRun.TASK, "run-e").orElseThrow().generation()).isEqualTo(2);
    assertThat(store.load(TestRun.TASK, "run-f").orElseThrow().generation()).isEqualTo(1);
    assertThat(store.load(TestRun.TASK, "run-g").orElseThrow().generation()).isEqualTo(1);
  }

  @Test
  void aCrashBeforeTheBatchedCallIsSentCommitsNoRunOfIt() throws Exception {
    TestRun a = new TestRun(store, store, "run-a").commit(1);
    TestRun b = new TestRun(store, store, "run-b").commit(1);
    TestRun holder = new TestRun(store, store, "run-hold").commit(1);
    AtomicReference<List<Future<CommitResult>>> futures = new AtomicReference<>();
    crashAt.set(CrashPoint.STORE_BEFORE_BATCHED_COMMIT);
    holdWhileQueueing(
        holder, () -> futures.set(List.of(submit(a.next(1)), submit(b.next(1)))), 2, false);
    for (Future<CommitResult> fut : futures.get()) {
      assertThat(failureOf(fut)).isInstanceOf(SimulatedCrash.class);
    }
    assertThat(store.load(TestRun.TASK, "run-a").orElseThrow().generation()).isEqualTo(1);
    assertThat(store.load(TestRun.TASK, "run-b").orElseThrow().generation()).isEqualTo(1);
  }

  @Test
  void aCrashAfterTheBatchedCallReturnedLeavesEveryWinnerCommittedThoughNoRunWasTold()
      throws Exception {
    TestRun a = new TestRun(store, store, "run-a").commit(1);
    TestRun b = new TestRun(store, store, "run-b").commit(1);
    TestRun holder = new TestRun(store, store, "run-hold").commit(1);
    AtomicReference<List<Future<CommitResult>>> futures = new AtomicReference<>();
    crashAt.set(CrashPoint.STORE_AFTER_BATCHED_COMMIT);
    CommitRequest nextA = a.next(1);
    holdWhileQueueing(
        holder, () -> futures.set(List.of(submit(nextA), submit(b.next(1)))), 2, false);
    for (Future<CommitResult> fut : futures.get()) {
      assertThat(failureOf(fut)).isInstanceOf(SimulatedCrash.class);
    }
    assertThat(store.load(TestRun.TASK, "run-a").orElseThrow().generation()).isEqualTo(2);
    assertThat(store.load(TestRun.TASK, "run-b").orElseThrow().generation()).isEqualTo(2);
    // A run that was never told sends its commit again: it lost its race to itself, never twice.
    crashAt.set(null);
    assertThat(store.commit(nextA)).isEqualTo(new CommitResult.LostRace(2));
    assertThat(store.load(TestRun.TASK, "run-a").orElseThrow().head(RecordSet.TRACE).count())
        .isEqualTo(2);
  }
}
