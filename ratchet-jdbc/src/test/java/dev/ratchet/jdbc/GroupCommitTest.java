package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.RunScope;
import dev.ratchet.store.SetHead;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.SimulatedCrash;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
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
import org.junit.jupiter.api.io.TempDir;

/**
 * Group commit: one writer commits the queued requests of many runs in one transaction, and a
 * request that is refused inside the batch (lost race, fenced, bad chain) is refused alone.
 *
 * <p>Batches are shaped deterministically: a split store's writer thread passes the crash seam
 * between content and mark, and a test seam holds it there while the next batch queues.
 */
class GroupCommitTest {
  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
  private final Gate gate = new Gate();
  private JdbcStore store;
  private ExecutorService pool;

  /** A seam that, once armed, holds the writer thread until released (or throws, if told). */
  private static final class Gate implements CrashSeam {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicReference<Error> fail = new AtomicReference<>();
    volatile boolean armed;

    @Override
    public void reached(CrashPoint point) {
      Error e = fail.getAndSet(null);
      if (e != null) {
        throw e;
      }
      if (armed) {
        armed = false;
        entered.countDown();
        try {
          release.await();
        } catch (InterruptedException ex) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  @BeforeEach
  void open() {
    store =
        TestStores.split(
            dir,
            TestStores.options(clock)
                .withGroupCommit(true)
                .withBusyTimeout(Duration.ofSeconds(30))
                .withCrashSeam(gate));
    pool = Executors.newCachedThreadPool();
  }

  @AfterEach
  void close() {
    gate.release.countDown();
    pool.shutdownNow();
    store.close();
  }

  private Future<CommitResult> submit(CommitRequest r) {
    return pool.submit(() -> store.commit(r));
  }

  private void awaitQueued(int n) {
    long deadline = System.currentTimeMillis() + 30_000;
    while (store.queuedCommits() < n) {
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException("only " + store.queuedCommits() + " queued of " + n);
      }
      LockSupport.parkNanos(1_000_000);
    }
  }

  private static Throwable failureOf(Future<CommitResult> f) throws Exception {
    try {
      f.get(30, TimeUnit.SECONDS);
      return null;
    } catch (ExecutionException e) {
      return e.getCause();
    }
  }

  @Test
  void aRunThatLosesItsRaceInsideABatchGetsLostRaceAndTheOthersCommit() throws Exception {
    TestRun a = new TestRun(store, store, "run-a").commit(1);
    TestRun b = new TestRun(store, store, "run-b").commit(1);
    TestRun c = new TestRun(store, store, "run-c").commit(1);
    TestRun d = new TestRun(store, store, "run-d").commit(1);
    TestRun e = new TestRun(store, store, "run-e").commit(1);
    TestRun holder = new TestRun(store, store, "run-hold");
    CommitStats before = store.stats();

    gate.armed = true;
    Future<CommitResult> held = submit(holder.next(1));
    gate.entered.await(30, TimeUnit.SECONDS);

    Future<CommitResult> fa = submit(a.next(2));
    Future<CommitResult> fb = submit(b.next(1));
    CommitRequest stale =
        new CommitRequest(
            new RunScope(TestRun.TASK, "run-c", TestRun.ENV), 0, c.lease, "{\"old\":1}", List.of());
    Future<CommitResult> fc = submit(stale);
    d.trace = SetHead.EMPTY; // d builds records on the wrong head: refused for its chain alone
    Future<CommitResult> fd = submit(d.next(1));
    Future<CommitResult> fe1 = submit(e.next(1));
    Future<CommitResult> fe2 = submit(e.next(1));
    awaitQueued(6);
    gate.release.countDown();

    assertThat(held.get(30, TimeUnit.SECONDS)).isEqualTo(new CommitResult.Committed(1));
    assertThat(fa.get(30, TimeUnit.SECONDS)).isEqualTo(new CommitResult.Committed(2));
    assertThat(fb.get(30, TimeUnit.SECONDS)).isEqualTo(new CommitResult.Committed(2));
    assertThat(fc.get(30, TimeUnit.SECONDS)).isEqualTo(new CommitResult.LostRace(1));
    Throwable refused = failureOf(fd);
    assertThat(refused).isInstanceOf(RatchetException.class);
    assertThat(((RatchetException) refused).code()).isEqualTo(ErrorCode.CONTRACT);
    List<CommitResult> twins =
        List.of(fe1.get(30, TimeUnit.SECONDS), fe2.get(30, TimeUnit.SECONDS));
    assertThat(twins)
        .containsExactlyInAnyOrder(new CommitResult.Committed(2), new CommitResult.LostRace(2));

    CommitStats after = store.stats();
    assertThat(after.transactions() - before.transactions()).isEqualTo(2);
    assertThat(after.requests() - before.requests()).isEqualTo(7);
    assertThat(after.largestBatch()).isEqualTo(6);

    assertThat(store.load(TestRun.TASK, "run-a").orElseThrow().head(RecordSet.TRACE).count())
        .isEqualTo(3);
    assertThat(store.load(TestRun.TASK, "run-c").orElseThrow().generation()).isEqualTo(1);
    assertThat(store.load(TestRun.TASK, "run-d").orElseThrow().generation()).isEqualTo(1);
    assertThat(store.load(TestRun.TASK, "run-e").orElseThrow().generation()).isEqualTo(2);
  }

  @Test
  void noBatchIsLargerThanMaxBatch() throws Exception {
    store.close();
    store =
        TestStores.split(
            dir,
            TestStores.options(clock).withGroupCommit(true).withMaxBatch(2).withCrashSeam(gate));
    List<TestRun> runs = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      runs.add(new TestRun(store, store, "run-" + i));
    }
    gate.armed = true;
    Future<CommitResult> held = submit(runs.get(0).next(1));
    gate.entered.await(30, TimeUnit.SECONDS);
    List<Future<CommitResult>> rest = new ArrayList<>();
    for (TestRun r : runs.subList(1, 6)) {
      rest.add(submit(r.next(1)));
    }
    awaitQueued(5);
    gate.release.countDown();
    assertThat(held.get(30, TimeUnit.SECONDS)).isEqualTo(new CommitResult.Committed(1));
    for (Future<CommitResult> f : rest) {
      assertThat(f.get(30, TimeUnit.SECONDS)).isEqualTo(new CommitResult.Committed(1));
    }
    assertThat(store.stats().largestBatch()).isEqualTo(2);
    assertThat(store.stats().transactions()).isEqualTo(4);
  }

  @Test
  void aBatchThatDiesFailsEveryMemberAndTheWriterCarriesOn() throws Exception {
    TestRun a = new TestRun(store, store, "run-a").commit(1);
    gate.fail.set(new SimulatedCrash(CrashPoint.STORE_BETWEEN_CONTENT_AND_MARK));
    Throwable t = failureOf(submit(a.next(1)));
    assertThat(t).isInstanceOf(SimulatedCrash.class);
    assertThat(store.load(TestRun.TASK, "run-a").orElseThrow().generation()).isEqualTo(1);
    assertThat(store.commit(a.next(1))).isEqualTo(new CommitResult.Committed(2));
  }

  @Test
  void manyRunsCommittingAtOnceAllCommitWithIntactTraces() throws Exception {
    int runs = 8;
    int commits = 40;
    List<Future<Long>> done = new ArrayList<>();
    CountDownLatch start = new CountDownLatch(1);
    for (int i = 0; i < runs; i++) {
      TestRun run = new TestRun(store, store, "run-" + i);
      done.add(
          pool.submit(
              () -> {
                start.await();
                run.commits(commits, 2);
                return run.generation;
              }));
    }
    start.countDown();
    for (Future<Long> f : done) {
      assertThat(f.get(60, TimeUnit.SECONDS)).isEqualTo(commits);
    }
    for (int i = 0; i < runs; i++) {
      var loaded = store.load(TestRun.TASK, "run-" + i).orElseThrow();
      assertThat(loaded.generation()).isEqualTo(commits);
      assertThat(
              TraceAudit.verify(store, TestRun.TASK, "run-" + i, loaded.head(RecordSet.TRACE))
                  .intact())
          .isTrue();
    }
    CommitStats s = store.stats();
    assertThat(s.requests()).isEqualTo((long) runs * commits);
    System.out.printf(
        "group commit: %d requests in %d transactions (largest batch %d)%n",
        s.requests(), s.transactions(), s.largestBatch());
  }
}
