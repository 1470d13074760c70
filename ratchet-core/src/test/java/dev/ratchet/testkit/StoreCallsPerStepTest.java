package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.Fence;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseStore;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import dev.ratchet.store.StoredRun;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * SPEC D22, "no read per call": the lease is trusted locally between renewals, counted from when
 * the grant or renewal request was sent; a steady write step asks the lease store nothing and reads
 * nothing from the store (ADR 0044: a used action id is refused by the commit, looked up only once
 * a proposal failed). The test counts store operations, never time.
 */
class StoreCallsPerStepTest {

  /** Counts every call a run makes on its checkpoint and lease stores. */
  static class Counting implements CheckpointStore, LeaseStore {
    final InMemoryStore inner;
    final ManualClock clock;
    Duration grantLatency = Duration.ZERO;
    long commits;
    long reads;
    long leaseChecks;
    long renewals;
    long grants;

    Counting(InMemoryStore inner, ManualClock clock) {
      this.inner = inner;
      this.clock = clock;
    }

    @Override
    public CommitResult commit(CommitRequest request) {
      commits++;
      return inner.commit(request);
    }

    @Override
    public Optional<StoredRun> load(String taskId, String runId) {
      reads++;
      return inner.load(taskId, runId);
    }

    @Override
    public Optional<StoredRecord> find(String taskId, String runId, RecordSet set, String key) {
      reads++;
      return inner.find(taskId, runId, set, key);
    }

    @Override
    public List<StoredRecord> records(
        String taskId, String runId, RecordSet set, long fromSequence, int limit) {
      reads++;
      return inner.records(taskId, runId, set, fromSequence, limit);
    }

    @Override
    public List<RunRef> runs() {
      reads++;
      return inner.runs();
    }

    @Override
    public List<RunRef> runs(String runId) {
      reads++;
      return inner.runs(runId);
    }

    @Override
    public void deliver(String taskId, String runId, InboxItem item) {
      inner.deliver(taskId, runId, item);
    }

    @Override
    public List<InboxItem> inbox(String taskId, String runId) {
      reads++;
      return inner.inbox(taskId, runId);
    }

    @Override
    public Optional<Lease> acquire(String runId, String owner, Duration ttl) {
      grants++;
      // The answer arrives grantLatency after the request was sent (a slow store).
      clock.advance(grantLatency);
      return inner.acquire(runId, owner, ttl);
    }

    @Override
    public Optional<Lease> takeOver(String runId, String owner, Duration ttl) {
      grants++;
      return inner.takeOver(runId, owner, ttl);
    }

    @Override
    public Lease renew(Lease lease, Duration ttl) {
      renewals++;
      return inner.renew(lease, ttl);
    }

    @Override
    public void release(Lease lease) {
      inner.release(lease);
    }

    @Override
    public Optional<Lease> current(String runId) {
      leaseChecks++;
      return inner.current(runId);
    }

    @Override
    public void check(Fence fence) {
      leaseChecks++;
      inner.check(fence);
    }

    long storeCalls() {
      return commits + reads + leaseChecks + renewals + grants;
    }
  }

  private final ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
  private final Counting counting = new Counting(new InMemoryStore(clock), clock);
  private final RuntimeFixture f = new RuntimeFixture(73, clock, counting, counting);
  private final TaskSpec task = f.task();
  private final InMemoryWorkspace ws = f.workspace();

  private static void step(Run run, int i) {
    run.apply(run.action("w" + i, "write_file", write("app.py", "print(" + i + ")\n")));
  }

  @Test
  void aSteadyWriteStepAsksTheLeaseStoreNothingAndReadsNothing() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      step(run, 0);
      long reads = counting.reads;
      long commits = counting.commits;
      int steps = 20;
      for (int i = 1; i <= steps; i++) {
        step(run, i);
      }
      assertThat(counting.leaseChecks).isZero();
      assertThat(counting.renewals).isZero();
      assertThat(counting.reads - reads).isZero(); // ADR 0044: a used id is the commit's to refuse
      assertThat(counting.commits - commits).isEqualTo(steps); // D22: the receipt rides along
      assertThat(ws.ledger()).hasSize(steps + 1);
    }
  }

  @Test
  void aUsedActionIdIsRefusedByTheCommitThenLookedUpOnceAndTheCarriedReceiptStillLands() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      step(run, 0);
      step(run, 1); // w1's receipt now rides on the run's next commit (D22)
      long reads = counting.reads;
      long commits = counting.commits;
      long proposals = run.state().usage().proposals();
      Throwable t =
          catchThrowable(
              () -> run.propose(run.action("w0", "write_file", write("app.py", "again\n"))));
      assertThat(t)
          .isInstanceOf(RatchetException.class)
          .hasMessageContaining("'w0' was already used");
      assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.CONTRACT);
      assertThat(counting.reads - reads).isEqualTo(1); // the lookup, after the refused commit
      assertThat(counting.commits - commits).isEqualTo(2); // refused by the store, then the refusal
      assertThat(run.state().pending()).isNull();
      assertThat(run.state().usage().proposals()).isEqualTo(proposals + 1);
      String key = ws.ledger().get(1);
      assertThat(counting.inner.find(task.taskId(), "run-1", RecordSet.RECEIPTS, key)).isPresent();
      List<StoredRecord> trace =
          counting.inner.records(task.taskId(), "run-1", RecordSet.TRACE, 1, 1000);
      assertThat(trace.get(trace.size() - 1).body()).contains("\"w0\"").contains("CONTRACT");
      step(run, 2);
      assertThat(ws.ledger()).hasSize(3);
    }
  }

  @Test
  void pastHalfItsLifeTheLeaseIsRenewedOnceThenTrustedLocallyAgain() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      clock.advance(RuntimeFixture.LEASE_TTL.dividedBy(2).plusSeconds(1));
      step(run, 1);
      assertThat(counting.renewals).isEqualTo(1);
      step(run, 2);
      step(run, 3);
      assertThat(counting.renewals).isEqualTo(1);
      assertThat(counting.leaseChecks).isZero();
    }
  }

  @Test
  void localValidityCountsFromWhenTheGrantRequestWasSentNotWhenItsAnswerCame() {
    // The grant's answer takes 10 s; 6 s later the lease is 16 s old counted from the request
    // (past half of 30 s) though only 6 s old counted from the answer.
    counting.grantLatency = Duration.ofSeconds(10);
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      long renewed = counting.renewals;
      clock.advance(Duration.ofSeconds(6));
      step(run, 1);
      assertThat(counting.renewals - renewed).isEqualTo(1);
    }
  }

  @Test
  void aLeaseTakenOverWhileStillTrustedLocallyIsRefusedByTheAdapterAndTheCommit() {
    // w1's monotonic clock stands still (clocks that disagree: what the margin is for), so it
    // keeps trusting its lease after the store let w2 take it over.
    Ratchet frozen =
        Ratchet.builder()
            .store(counting)
            .leases(counting)
            .checkpointKeys(f.keyRing)
            .approvers(f.approvers)
            .reviewers(f.reviewers)
            .clock(clock)
            .monotonicClock(() -> 0L)
            .entropy(f.entropy)
            .workerId("w1")
            .leaseTtl(RuntimeFixture.LEASE_TTL)
            .build();
    Run a = frozen.start(task, "run-1", ws);
    clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
    Run b = f.ratchet("w2").resume(task, "run-1", ws);
    step(b, 1);
    int effects = ws.ledger().size();
    long generation = b.generation();
    Throwable t = catchThrowable(() -> step(a, 2));
    assertThat(t).isInstanceOf(RatchetException.class);
    assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.FENCED);
    assertThat(ws.ledger()).hasSize(effects);
    assertThat(counting.load(task.taskId(), "run-1").orElseThrow().generation())
        .isEqualTo(generation);
  }

  @Test
  void aSafetyMarginNotShorterThanTheTtlIsRefusedNamingTheField() {
    Throwable t =
        catchThrowable(
            () ->
                Ratchet.builder()
                    .store(counting)
                    .leases(counting)
                    .checkpointKeys(f.keyRing)
                    .approvers(f.approvers)
                    .reviewers(f.reviewers)
                    .workerId("w1")
                    .leaseTtl(Duration.ofSeconds(30))
                    .leaseMargin(Duration.ofSeconds(30))
                    .build());
    assertThat(t).isInstanceOf(RatchetException.class).hasMessageContaining("lease_margin");
  }
}
