package dev.ratchet.testkit;

import static dev.ratchet.testkit.ContractRecords.checkpoint;
import static dev.ratchet.testkit.ContractRecords.codeOf;
import static dev.ratchet.testkit.ContractRecords.headAfter;
import static dev.ratchet.testkit.ContractRecords.traceAfter;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseStore;
import dev.ratchet.store.LeaseToken;
import dev.ratchet.store.RecordChain;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.RunScope;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRecord;
import dev.ratchet.store.StoredRun;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@link CheckpointStore} contract (SPEC §4, D6, D7, D12): every implementation subclasses this
 * and supplies a fresh store, the lease store its commits check, and a way to make it unreachable.
 * Expected outcomes are returned ({@code Committed}, {@code LostRace}, {@code Fenced}); refusals
 * are {@link RatchetException}s with their codes.
 */
public abstract class CheckpointStoreContract {
  protected static final Instant START = Instant.parse("2026-07-18T09:00:00Z");
  protected static final Duration TTL = Duration.ofSeconds(30);
  protected static final String TASK = "task-1";
  protected static final String ENV = "env-1";

  protected ManualClock clock;
  protected CheckpointStore store;
  protected LeaseStore leases;

  /** A fresh, empty store judging leases on {@code clock}; the contract closes it. */
  protected abstract CheckpointStore newStore(ManualClock clock);

  /** The lease store whose leases {@code store}'s commits check (often the same object). */
  protected abstract LeaseStore leasesOf(CheckpointStore store);

  /** Makes {@code store} unreachable, as a lost database would be. */
  protected abstract void makeUnavailable(CheckpointStore store);

  @BeforeEach
  void openStore() {
    clock = new ManualClock(START);
    store = newStore(clock);
    leases = leasesOf(store);
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  // ---- helpers ----

  protected static RunScope scope(String runId) {
    return new RunScope(TASK, runId, ENV);
  }

  protected Lease lease(String runId) {
    return leases.acquire(runId, "worker-1", TTL).orElseThrow();
  }

  protected static CommitRequest request(
      String runId, long expected, Lease lease, String checkpoint, List<StoredRecord> records) {
    return new CommitRequest(scope(runId), expected, lease, checkpoint, records);
  }

  protected CommitResult commit(String runId, long expected, Lease lease, String checkpoint) {
    return store.commit(request(runId, expected, lease, checkpoint, List.of()));
  }

  private StoredRun loaded(String runId) {
    return store.load(TASK, runId).orElseThrow();
  }

  // ---- create and compare-and-set ----

  @Test
  @Rules("R1.15-mark")
  void aNewRunIsCreatedFromGenerationZero() {
    Lease f = lease("run-a");
    assertThat(commit("run-a", 0, f, checkpoint("run-a", 1)))
        .isEqualTo(new CommitResult.Committed(1));
    StoredRun run = loaded("run-a");
    assertThat(run.generation()).isEqualTo(1);
    assertThat(run.checkpoint()).isEqualTo(checkpoint("run-a", 1));
    assertThat(run.scope()).isEqualTo(scope("run-a"));
    for (RecordSet s : RecordSet.values()) {
      assertThat(run.head(s)).isEqualTo(SetHead.EMPTY);
    }
  }

  @Test
  void theContentDigestIsTheSha256OfTheCheckpoint() {
    commit("run-a", 0, lease("run-a"), checkpoint("run-a", 1));
    assertThat(loaded("run-a").contentDigest())
        .isEqualTo(Canonical.sha256Hex(checkpoint("run-a", 1)));
  }

  @Test
  void anUnknownRunLoadsAsEmpty() {
    assertThat(store.load(TASK, "nobody")).isEmpty();
    assertThat(store.find(TASK, "nobody", RecordSet.TRACE, "1")).isEmpty();
    assertThat(store.records(TASK, "nobody", RecordSet.TRACE, 1, 10)).isEmpty();
  }

  @Test
  @Rules("R1.15-mark")
  void theCurrentGenerationAdvancesByOne() {
    Lease f = lease("run-a");
    for (long g = 0; g < 5; g++) {
      assertThat(commit("run-a", g, f, checkpoint("run-a", g + 1)))
          .isEqualTo(new CommitResult.Committed(g + 1));
      assertThat(loaded("run-a").generation()).isEqualTo(g + 1);
      assertThat(loaded("run-a").checkpoint()).isEqualTo(checkpoint("run-a", g + 1));
    }
  }

  @Test
  @Rules("R1.15-mark")
  void aStaleGenerationLosesTheRaceAndWritesNothing() {
    Lease f = lease("run-a");
    commit("run-a", 0, f, checkpoint("run-a", 1));
    commit("run-a", 1, f, checkpoint("run-a", 2));
    List<StoredRecord> records = traceAfter(SetHead.EMPTY, 2);
    CommitResult r = store.commit(request("run-a", 1, f, "late", records));
    assertThat(r).isEqualTo(new CommitResult.LostRace(2));
    assertThat(r.kind()).isEqualTo(CommitResult.Kind.LOST_RACE);
    StoredRun run = loaded("run-a");
    assertThat(run.generation()).isEqualTo(2);
    assertThat(run.checkpoint()).isEqualTo(checkpoint("run-a", 2));
    assertThat(run.head(RecordSet.TRACE)).isEqualTo(SetHead.EMPTY);
    assertThat(store.find(TASK, "run-a", RecordSet.TRACE, "1")).isEmpty();
  }

  @Test
  void creatingARunThatExistsLosesTheRace() {
    Lease f = lease("run-a");
    commit("run-a", 0, f, checkpoint("run-a", 1));
    commit("run-a", 1, f, checkpoint("run-a", 2));
    assertThat(commit("run-a", 0, f, "again")).isEqualTo(new CommitResult.LostRace(2));
    assertThat(loaded("run-a").checkpoint()).isEqualTo(checkpoint("run-a", 2));
  }

  @Test
  void advancingARunThatDoesNotExistLosesTheRaceAtZero() {
    assertThat(commit("run-a", 3, lease("run-a"), "ghost")).isEqualTo(new CommitResult.LostRace(0));
    assertThat(store.load(TASK, "run-a")).isEmpty();
  }

  @Test
  @Rules("R1.15-mark")
  void exactlyOneOfManyRacingWritersWins() throws Exception {
    Lease f = lease("run-a");
    commit("run-a", 0, f, checkpoint("run-a", 1));
    int writers = 8;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      for (long round = 1; round <= 10; round++) {
        long expected = round;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<CommitResult>> results = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
          String text = "{\"round\":" + round + ",\"writer\":" + w + "}";
          results.add(
              pool.submit(
                  () -> {
                    start.await();
                    return commit("run-a", expected, f, text);
                  }));
        }
        start.countDown();
        int won = 0;
        for (Future<CommitResult> r : results) {
          CommitResult result = r.get(30, TimeUnit.SECONDS);
          if (result.kind() == CommitResult.Kind.COMMITTED) {
            won++;
            assertThat(result).isEqualTo(new CommitResult.Committed(expected + 1));
          } else {
            assertThat(result).isEqualTo(new CommitResult.LostRace(expected + 1));
          }
        }
        assertThat(won).as("winners in round " + round).isEqualTo(1);
        assertThat(loaded("run-a").generation()).isEqualTo(expected + 1);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  // ---- fencing (checked after the generation, before the instance) ----

  @Test
  void aCommitUnderAnotherOwnersNameIsFenced() {
    Lease mine = lease("run-a");
    commit("run-a", 0, mine, checkpoint("run-a", 1));
    Lease forged =
        new Lease("run-a", "intruder", mine.version(), mine.expiresAt(), mine.requireToken());
    CommitResult r = commit("run-a", 1, forged, "forged");
    assertThat(r.kind()).isEqualTo(CommitResult.Kind.FENCED);
    assertThat(loaded("run-a").generation()).isEqualTo(1);
  }

  @Test
  void aCommitWithAnOlderLeaseVersionIsFenced() {
    Lease first = leases.acquire("run-a", "worker-1", TTL).orElseThrow();
    commit("run-a", 0, first, checkpoint("run-a", 1));
    clock.advance(TTL.plusSeconds(1));
    Lease second = leases.takeOver("run-a", "worker-1", TTL).orElseThrow();
    assertThat(second.version()).isGreaterThan(first.version());
    List<StoredRecord> records = traceAfter(SetHead.EMPTY, 1);
    CommitResult r = store.commit(request("run-a", 1, first, "late", records));
    assertThat(r.kind()).isEqualTo(CommitResult.Kind.FENCED);
    assertThat(loaded("run-a").generation()).isEqualTo(1);
    assertThat(loaded("run-a").head(RecordSet.TRACE)).isEqualTo(SetHead.EMPTY);
    assertThat(commit("run-a", 1, second, checkpoint("run-a", 2)))
        .isEqualTo(new CommitResult.Committed(2));
  }

  @Test
  void aCommitAfterTheLeaseExpiredIsFenced() {
    Lease f = lease("run-a");
    commit("run-a", 0, f, checkpoint("run-a", 1));
    clock.advance(TTL);
    assertThat(commit("run-a", 1, f, "late").kind()).isEqualTo(CommitResult.Kind.FENCED);
    assertThat(loaded("run-a").generation()).isEqualTo(1);
  }

  @Test
  void creatingARunWithoutALeaseIsFenced() {
    Lease f = lease("run-a");
    leases.release(f);
    assertThat(commit("run-a", 0, f, "unleased").kind()).isEqualTo(CommitResult.Kind.FENCED);
    Lease never = new Lease("run-b", "worker-1", 1, START.plus(TTL), f.requireToken());
    assertThat(commit("run-b", 0, never, "never").kind()).isEqualTo(CommitResult.Kind.FENCED);
    assertThat(store.load(TASK, "run-a")).isEmpty();
    assertThat(store.load(TASK, "run-b")).isEmpty();
  }

  @Test
  void theGenerationIsCheckedBeforeTheFence() {
    Lease f = lease("run-a");
    commit("run-a", 0, f, checkpoint("run-a", 1));
    commit("run-a", 1, f, checkpoint("run-a", 2));
    clock.advance(TTL.multipliedBy(2));
    assertThat(commit("run-a", 1, f, "stale and expired")).isEqualTo(new CommitResult.LostRace(2));
  }

  @Test
  void theFenceIsCheckedBeforeTheInstance() {
    Lease f = lease("run-a");
    commit("run-a", 0, f, checkpoint("run-a", 1));
    clock.advance(TTL.multipliedBy(2));
    CommitResult r =
        store.commit(new CommitRequest(new RunScope(TASK, "run-a", "env-2"), 1, f, "x", List.of()));
    assertThat(r.kind()).isEqualTo(CommitResult.Kind.FENCED);
    assertThat(((CommitResult.Fenced) r).reason()).doesNotContain("instance");
  }

  @Test
  @Rules("R3.3-instance")
  void aCommitAgainstAnotherEnvironmentInstanceIsFenced() {
    Lease f = lease("run-a");
    commit("run-a", 0, f, checkpoint("run-a", 1));
    List<StoredRecord> records = traceAfter(SetHead.EMPTY, 1);
    CommitResult r =
        store.commit(
            new CommitRequest(new RunScope(TASK, "run-a", "env-2"), 1, f, "other", records));
    assertThat(r.kind()).isEqualTo(CommitResult.Kind.FENCED);
    StoredRun run = loaded("run-a");
    assertThat(run.generation()).isEqualTo(1);
    assertThat(run.scope().environmentInstanceId()).isEqualTo(ENV);
    assertThat(run.head(RecordSet.TRACE)).isEqualTo(SetHead.EMPTY);
  }

  // ---- the lease token (D21): the fence alone does not commit ----

  @Test
  void aCommitWithTheRightFenceButAnotherTokenIsFencedAndWritesNothing() {
    Lease f = lease("run-a");
    commit("run-a", 0, f, checkpoint("run-a", 1));
    LeaseToken guessed = LeaseToken.of(new byte[LeaseToken.BYTES]);
    Lease forged = new Lease("run-a", f.owner(), f.version(), f.expiresAt(), guessed);
    List<StoredRecord> records = traceAfter(SetHead.EMPTY, 1);
    CommitResult r = store.commit(request("run-a", 1, forged, "forged", records));
    assertThat(r.kind()).isEqualTo(CommitResult.Kind.FENCED);
    assertThat(loaded("run-a").generation()).isEqualTo(1);
    assertThat(loaded("run-a").head(RecordSet.TRACE)).isEqualTo(SetHead.EMPTY);
    assertThat(commit("run-a", 1, f, checkpoint("run-a", 2)))
        .isEqualTo(new CommitResult.Committed(2));
  }

  @Test
  void anObservedLeaseCarriesNoTokenAndCannotCommit() {
    lease("run-a");
    Lease observed = leases.current("run-a").orElseThrow();
    assertThat(observed.token()).isNull();
    assertThat(codeOf(() -> commit("run-a", 0, observed, "x"))).isEqualTo(ErrorCode.FENCED);
    assertThat(store.load(TASK, "run-a")).isEmpty();
  }

  // ---- records: appended with the commit, chained, found by key ----

  @Test
  @Rules("R1.13-trace")
  void recordsAreAppendedAtomicallyWithTheCommit() {
    Lease f = lease("run-a");
    List<StoredRecord> trace = traceAfter(SetHead.EMPTY, 3);
    StoredRecord receipt =
        RecordChain.append(SetHead.EMPTY, RecordSet.RECEIPTS, "key-1", "{\"receipt\":1}");
    StoredRecord nonce = RecordChain.append(SetHead.EMPTY, RecordSet.NONCES, "n-1", "{}");
    List<StoredRecord> all = new ArrayList<>(trace);
    all.add(receipt);
    all.add(nonce);
    assertThat(store.commit(request("run-a", 0, f, checkpoint("run-a", 1), all)))
        .isEqualTo(new CommitResult.Committed(1));
    StoredRun run = loaded("run-a");
    assertThat(run.head(RecordSet.TRACE)).isEqualTo(headAfter(SetHead.EMPTY, trace));
    assertThat(run.head(RecordSet.RECEIPTS)).isEqualTo(new SetHead(1, receipt.chain()));
    assertThat(run.head(RecordSet.NONCES)).isEqualTo(new SetHead(1, nonce.chain()));
    assertThat(run.head(RecordSet.ACTION_IDS)).isEqualTo(SetHead.EMPTY);

    List<StoredRecord> more = traceAfter(run.head(RecordSet.TRACE), 2);
    assertThat(store.commit(request("run-a", 1, f, checkpoint("run-a", 2), more)))
        .isEqualTo(new CommitResult.Committed(2));
    assertThat(loaded("run-a").head(RecordSet.TRACE).count()).isEqualTo(5);
    assertThat(store.find(TASK, "run-a", RecordSet.RECEIPTS, "key-1")).contains(receipt);
  }

  @Test
  @Rules("R1.13-trace")
  void aRecordThatDoesNotContinueTheChainIsRefusedAndNothingIsWritten() {
    Lease f = lease("run-a");
    store.commit(request("run-a", 0, f, checkpoint("run-a", 1), traceAfter(SetHead.EMPTY, 2)));
    // Built on the empty head instead of the stored one: sequence 1 again.
    List<StoredRecord> restart = traceAfter(SetHead.EMPTY, 1);
    assertThat(codeOf(() -> store.commit(request("run-a", 1, f, "x", restart))))
        .isEqualTo(ErrorCode.CONTRACT);
    // Right sequence, but chained onto a forged head.
    SetHead forged = new SetHead(2, "a".repeat(64));
    List<StoredRecord> wrongChain = traceAfter(forged, 1);
    assertThat(codeOf(() -> store.commit(request("run-a", 1, f, "y", wrongChain))))
        .isEqualTo(ErrorCode.CONTRACT);
    // A gap: sequence 4 after a stored count of 2.
    SetHead skipped =
        headAfter(
            loaded("run-a").head(RecordSet.TRACE),
            traceAfter(loaded("run-a").head(RecordSet.TRACE), 1));
    List<StoredRecord> gap = traceAfter(skipped, 1);
    assertThat(codeOf(() -> store.commit(request("run-a", 1, f, "z", gap))))
        .isEqualTo(ErrorCode.CONTRACT);
    StoredRun run = loaded("run-a");
    assertThat(run.generation()).isEqualTo(1);
    assertThat(run.checkpoint()).isEqualTo(checkpoint("run-a", 1));
    assertThat(run.head(RecordSet.TRACE).count()).isEqualTo(2);
  }

  @Test
  void aKeyThatIsAlreadyInTheSetIsRefused() {
    Lease f = lease("run-a");
    StoredRecord first = RecordChain.append(SetHead.EMPTY, RecordSet.RECEIPTS, "k", "{\"n\":1}");
    store.commit(request("run-a", 0, f, checkpoint("run-a", 1), List.of(first)));
    SetHead h = new SetHead(1, first.chain());
    StoredRecord again = RecordChain.append(h, RecordSet.RECEIPTS, "k", "{\"n\":2}");
    assertThat(codeOf(() -> store.commit(request("run-a", 1, f, "dup", List.of(again)))))
        .isEqualTo(ErrorCode.CONTRACT);
    assertThat(loaded("run-a").generation()).isEqualTo(1);
    assertThat(loaded("run-a").head(RecordSet.RECEIPTS)).isEqualTo(h);
  }

  @Test
  void recordsAreFoundByKeyInTheirOwnRunAndSetOnly() {
    Lease a = lease("run-a");
    Lease b = lease("run-b");
    StoredRecord ra = RecordChain.append(SetHead.EMPTY, RecordSet.ACTION_IDS, "act-1", "{}");
    store.commit(request("run-a", 0, a, checkpoint("run-a", 1), List.of(ra)));
    store.commit(request("run-b", 0, b, checkpoint("run-b", 1), List.of()));
    assertThat(store.find(TASK, "run-a", RecordSet.ACTION_IDS, "act-1")).contains(ra);
    assertThat(store.find(TASK, "run-a", RecordSet.ACTION_IDS, "act-2")).isEmpty();
    assertThat(store.find(TASK, "run-a", RecordSet.QUARANTINED_KEYS, "act-1")).isEmpty();
    assertThat(store.find(TASK, "run-b", RecordSet.ACTION_IDS, "act-1")).isEmpty();
    assertThat(store.find("task-2", "run-a", RecordSet.ACTION_IDS, "act-1")).isEmpty();
  }

  @Test
  void recordsArePagedInSequenceOrder() {
    Lease f = lease("run-a");
    List<StoredRecord> trace = traceAfter(SetHead.EMPTY, 25);
    store.commit(request("run-a", 0, f, checkpoint("run-a", 1), trace));
    assertThat(store.records(TASK, "run-a", RecordSet.TRACE, 1, 10))
        .isEqualTo(trace.subList(0, 10));
    assertThat(store.records(TASK, "run-a", RecordSet.TRACE, 11, 10))
        .isEqualTo(trace.subList(10, 20));
    assertThat(store.records(TASK, "run-a", RecordSet.TRACE, 21, 10))
        .isEqualTo(trace.subList(20, 25));
    assertThat(store.records(TASK, "run-a", RecordSet.TRACE, 26, 10)).isEmpty();
    assertThat(store.records(TASK, "run-a", RecordSet.RECEIPTS, 1, 10)).isEmpty();
  }

  @Test
  void runsListsEveryRunWithItsGeneration() {
    Lease a = lease("run-a");
    Lease b = lease("run-b");
    commit("run-a", 0, a, checkpoint("run-a", 1));
    commit("run-a", 1, a, checkpoint("run-a", 2));
    commit("run-b", 0, b, checkpoint("run-b", 1));
    assertThat(store.runs())
        .containsExactlyInAnyOrder(
            new CheckpointStore.RunRef(TASK, "run-a", 2),
            new CheckpointStore.RunRef(TASK, "run-b", 1));
  }

  // ---- inbox (D12) ----

  @Test
  @Rules("R2.3.1-inbox")
  void theInboxListsDeliveriesInOrderUntilTheirNonceIsConsumed() {
    Lease f = lease("run-a");
    commit("run-a", 0, f, checkpoint("run-a", 1));
    InboxItem first = new InboxItem("nonce-1", InboxItem.Kind.APPROVAL, "{\"a\":1}");
    InboxItem second = new InboxItem("nonce-2", InboxItem.Kind.REVIEW_DECISION, "{\"d\":2}");
    store.deliver(TASK, "run-a", first);
    store.deliver(TASK, "run-a", second);
    assertThat(store.inbox(TASK, "run-a")).containsExactly(first, second);
    assertThat(loaded("run-a").generation()).isEqualTo(1);

    StoredRecord consumed = RecordChain.append(SetHead.EMPTY, RecordSet.NONCES, "nonce-1", "{}");
    store.commit(request("run-a", 1, f, checkpoint("run-a", 2), List.of(consumed)));
    assertThat(store.inbox(TASK, "run-a")).containsExactly(second);
    assertThat(store.inbox(TASK, "run-b")).isEmpty();
  }

  @Test
  @Rules("R2.3.1-inbox")
  void aNonceIsDeliveredOnlyOnce() {
    Lease f = lease("run-a");
    commit("run-a", 0, f, checkpoint("run-a", 1));
    InboxItem item = new InboxItem("nonce-1", InboxItem.Kind.APPROVAL, "{}");
    store.deliver(TASK, "run-a", item);
    assertThat(codeOf(() -> store.deliver(TASK, "run-a", item))).isEqualTo(ErrorCode.APPROVAL);
    StoredRecord consumed = RecordChain.append(SetHead.EMPTY, RecordSet.NONCES, "nonce-1", "{}");
    store.commit(request("run-a", 1, f, checkpoint("run-a", 2), List.of(consumed)));
    InboxItem replay = new InboxItem("nonce-1", InboxItem.Kind.APPROVAL, "{\"again\":true}");
    assertThat(codeOf(() -> store.deliver(TASK, "run-a", replay))).isEqualTo(ErrorCode.APPROVAL);
    assertThat(store.inbox(TASK, "run-a")).isEmpty();
  }

  @Test
  void deliveringToARunThatDoesNotExistIsRefused() {
    InboxItem item = new InboxItem("nonce-1", InboxItem.Kind.APPROVAL, "{}");
    assertThat(codeOf(() -> store.deliver(TASK, "nobody", item))).isEqualTo(ErrorCode.CONTRACT);
  }

  // ---- failing closed ----

  @Test
  @Rules("R3.2-store-absent")
  void anUnavailableStoreFailsClosed() {
    Lease f = lease("run-a");
    commit("run-a", 0, f, checkpoint("run-a", 1));
    makeUnavailable(store);
    InboxItem item = new InboxItem("nonce-1", InboxItem.Kind.APPROVAL, "{}");
    List<ThrowingCallable> calls =
        List.of(
            () -> store.load(TASK, "run-a"),
            () -> commit("run-a", 1, f, checkpoint("run-a", 2)),
            () -> store.find(TASK, "run-a", RecordSet.TRACE, "1"),
            () -> store.records(TASK, "run-a", RecordSet.TRACE, 1, 10),
            () -> store.runs(),
            () -> store.deliver(TASK, "run-a", item),
            () -> store.inbox(TASK, "run-a"));
    for (ThrowingCallable call : calls) {
      assertThat(codeOf(call)).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
    }
  }
}
