package dev.ratchet.testkit;

import static dev.ratchet.testkit.ContractRecords.checkpoint;
import static dev.ratchet.testkit.ContractRecords.codeOf;
import static dev.ratchet.testkit.ContractRecords.headAfter;
import static dev.ratchet.testkit.ContractRecords.traceAfter;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseStore;
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
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fixture of the {@link CheckpointStore} contract and its record, inbox and fail-closed part
 * (SPEC §4, D7, D12): records are appended with the commit, chained and found by key; deliveries
 * wait in the inbox until their nonce is consumed; an unreachable store fails closed. Every
 * implementation subclasses {@link CheckpointStoreContract}, which extends this class, and so runs
 * both halves.
 */
public abstract class CheckpointRecordsContract {
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

  protected StoredRun loaded(String runId) {
    return store.load(TASK, runId).orElseThrow();
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

  /**
   * Whether the commit itself refuses a record whose link or sequence does not continue its set's
   * stored chain. SPEC D34 lets a store leave links to the readers, which authenticate every record
   * against the signed heads (D20): PostgreSQL's one-call commit since schema version 19 (ADR
   * 0045). Such a store still refuses a repeated sequence or key.
   */
  protected boolean refusesRecordsOffTheirChain() {
    return true;
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
    // A gap: sequence 4 after a stored count of 2.
    SetHead skipped =
        headAfter(
            loaded("run-a").head(RecordSet.TRACE),
            traceAfter(loaded("run-a").head(RecordSet.TRACE), 1));
    List<StoredRecord> gap = traceAfter(skipped, 1);
    if (!refusesRecordsOffTheirChain()) {
      linksLeftToTheReaders(f, wrongChain, gap);
      return;
    }
    assertThat(codeOf(() -> store.commit(request("run-a", 1, f, "y", wrongChain))))
        .isEqualTo(ErrorCode.CONTRACT);
    assertThat(codeOf(() -> store.commit(request("run-a", 1, f, "z", gap))))
        .isEqualTo(ErrorCode.CONTRACT);
    StoredRun run = loaded("run-a");
    assertThat(run.generation()).isEqualTo(1);
    assertThat(run.envelope().text()).isEqualTo(checkpoint("run-a", 1));
    assertThat(run.head(RecordSet.TRACE).count()).isEqualTo(2);
  }

  /**
   * D34: the store writes each record as given, and the chain walked from genesis breaks exactly at
   * it, which is what every full reader refuses (the signed head would not match either).
   */
  private void linksLeftToTheReaders(
      Lease f, List<StoredRecord> wrongChain, List<StoredRecord> gap) {
    StoredRun untouched = loaded("run-a");
    assertThat(untouched.generation()).isEqualTo(1);
    assertThat(untouched.head(RecordSet.TRACE).count()).isEqualTo(2);
    assertThat(firstBreak("run-a")).isZero();
    assertThat(store.commit(request("run-a", 1, f, checkpoint("run-a", 2), wrongChain)))
        .isEqualTo(new CommitResult.Committed(2));
    assertThat(firstBreak("run-a")).isEqualTo(3);
    Lease g = lease("run-b");
    store.commit(request("run-b", 0, g, checkpoint("run-b", 1), traceAfter(SetHead.EMPTY, 2)));
    assertThat(store.commit(request("run-b", 1, g, checkpoint("run-b", 2), gap)))
        .isEqualTo(new CommitResult.Committed(2));
    assertThat(firstBreak("run-b")).isEqualTo(4);
  }

  /** The first stored trace record that does not continue the chain from genesis, else 0. */
  private long firstBreak(String runId) {
    SetHead h = SetHead.EMPTY;
    for (StoredRecord r : store.records(TASK, runId, RecordSet.TRACE, 1, 1_000)) {
      StoredRecord expected = RecordChain.append(h, RecordSet.TRACE, r.key(), r.body());
      if (r.sequence() != expected.sequence() || !r.chain().equals(expected.chain())) {
        return r.sequence();
      }
      h = RecordChain.advance(h, r);
    }
    return 0;
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
