package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.Run;
import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.ForwardingAdapter;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.Recovery;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.Lease;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * SPEC D22, the fold: a write's receipt rides on the run's next commit, so a steady write step
 * costs one commit; and no later intent, no lease release and no completion is ever durable before
 * the receipt of every earlier write. A store wrapper checks the order at every commit and release
 * against the workspace's own ledger (each effect there has a receipt the run must hold durably).
 */
class ReceiptFoldTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
  private final Watching store = new Watching(new InMemoryStore(clock), clock);
  private final RuntimeFixture f = new RuntimeFixture(74, clock, store, store);
  private final InMemoryWorkspace ws = f.workspace();

  /** Counts calls and records every moment D22's order was broken. */
  final class Watching extends StoreCallsPerStepTest.Counting {
    final List<String> violations = new ArrayList<>();
    TaskSpec task;
    long releases;

    Watching(InMemoryStore inner, ManualClock clock) {
      super(inner, clock);
    }

    @Override
    public CommitResult commit(CommitRequest request) {
      CommitResult r = super.commit(request);
      String traced = outcomes(request.records());
      if (r instanceof CommitResult.Committed) {
        if (traced.contains("\"outcome\":\"accepted_pending\"")) {
          check("a later intent became durable");
        }
        if (traced.contains("\"outcome\":\"completed\"")) {
          check("the run was reported complete");
        }
      }
      return r;
    }

    @Override
    public void release(Lease lease) {
      releases++;
      check("the lease was released");
      super.release(lease);
    }

    /** Every effect the workspace performed has its receipt in the durable checkpoint. */
    void check(String what) {
      long effects = ws.ledger().size();
      long durable = durableReceipts();
      if (durable != effects) {
        violations.add(what + " with " + durable + " durable receipts for " + effects + " effects");
      }
    }

    long durableReceipts() {
      return inner
          .load(task.taskId(), "run-1")
          .map(s -> s.head(RecordSet.RECEIPTS).count())
          .orElse(0L);
    }

    private String outcomes(List<StoredRecord> records) {
      StringBuilder b = new StringBuilder();
      records.stream().filter(x -> x.set() == RecordSet.TRACE).forEach(x -> b.append(x.body()));
      return b.toString();
    }
  }

  private static void step(Run run, int i) {
    run.apply(run.action("w" + i, "write_file", write("app.py", "print(" + i + ")\n")));
  }

  private Run start(TaskSpec task) {
    store.task = task;
    return f.ratchet("w1").start(task, "run-1", ws);
  }

  @Test
  void aSteadyWriteStepWithoutApprovalCostsExactlyOneCommit() {
    try (Run run = start(f.task(new Budgets(1_000, 1_000, 86_400_000L, 1_000_000)))) {
      step(run, 0); // warm-up: its receipt rides on the first measured step's intent
      long commits = store.commits;
      int steps = 200;
      for (int i = 1; i <= steps; i++) {
        step(run, i);
      }
      double perStep = (double) (store.commits - commits) / steps;
      assertThat(String.format(Locale.ROOT, "%.2f", perStep)).isEqualTo("1.00");
      assertThat(ws.ledger()).hasSize(steps + 1);
      assertThat(store.durableReceipts()).isEqualTo(steps); // the last one still rides
    }
    assertThat(store.durableReceipts()).isEqualTo(201); // closing flushed it, then released
    assertThat(store.violations).isEmpty();
  }

  @Test
  void theReceiptOnlyInMemoryIsNotYetDurableAndCloseFlushesItBeforeReleasingTheLease() {
    Run run = start(f.task());
    step(run, 1);
    assertThat(store.durableReceipts()).isZero();
    assertThat(run.state().pending()).isNull(); // the driver sees the state the commit will make
    assertThat(run.trace().get(run.trace().size() - 1).outcome().wireName()).isEqualTo("executed");
    long commits = store.commits;
    run.close();
    assertThat(store.commits - commits).isEqualTo(1);
    assertThat(store.releases).isEqualTo(1);
    assertThat(store.durableReceipts()).isEqualTo(1);
    assertThat(store.violations).isEmpty();
  }

  @Test
  void aWriteThatWaitsForApprovalCarriesTheEarlierReceiptOnItsIntent() {
    TaskSpec task = f.task("append_file");
    Run run = start(task);
    step(run, 1);
    Proposal p = run.propose(run.action("a2", "append_file", write("log.txt", "x\n")));
    assertThat(p.kind()).isEqualTo(Proposal.Kind.PENDING);
    assertThat(store.durableReceipts()).isEqualTo(1);
    RuntimeFixture.awaitingWhy(run.execute("a2")); // no approval: the write waits
    run.close();
    assertThat(store.violations).isEmpty();
  }

  @Test
  void finishIsDurableOnlyWithEveryEarlierReceipt() {
    try (Run run = start(f.task())) {
      run.apply(run.action("w1", "write_file", write("app.py", RuntimeFixture.FIXED)));
      // finish straight after a write is refused (no verification), in a commit carrying it
      catchThrowable(() -> run.apply(run.action("f0", "finish", JsonObject.EMPTY)));
      assertThat(store.durableReceipts()).isEqualTo(1);
      run.apply(run.action("t1", "run_tests", JsonObject.builder().put("target", "unit").build()));
      run.apply(run.action("f1", "finish", JsonObject.EMPTY));
      assertThat(run.state().phase()).isEqualTo(Phase.COMPLETED);
    }
    assertThat(store.violations).isEmpty();
  }

  @Test
  void theResultOfAnUnreceiptedEffectIsCommittedAtOnce() {
    try (Run run = f.ratchet("w1").start(f.task(), "run-1", new Unreceipted(ws))) {
      store.task = f.task();
      step(run, 0);
      long commits = store.commits;
      step(run, 1);
      // the intent, the effect_started mark before the effect, then its result at once (D23)
      assertThat(store.commits - commits).isEqualTo(3);
      assertThat(store.durableReceipts()).isEqualTo(2);
    }
    assertThat(store.violations).isEmpty();
  }

  @Test
  void aCrashWhileTheReceiptIsOnlyInMemoryIsReconciledFromTheAdapterNeverRepeated() {
    CrashPlan plan = new CrashPlan();
    store.task = f.task();
    Run run = f.ratchet("w1", plan).start(f.task(), "run-1", ws);
    plan.arm(CrashPoint.RECEIPT_ONLY_IN_MEMORY);
    catchThrowable(() -> step(run, 1));
    assertThat(plan.fired()).containsExactly(CrashPoint.RECEIPT_ONLY_IN_MEMORY);
    assertThat(store.durableReceipts()).isZero();
    clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
    try (Run recovered = f.ratchet("w2").resume(f.task(), "run-1", ws)) {
      assertThat(recovered.recovery().found()).isEqualTo(Recovery.Found.EFFECT_WITHOUT_RECEIPT);
      assertThat(recovered.recovery().did()).isEqualTo(Recovery.Did.RECONCILED);
      assertThat(store.durableReceipts()).isEqualTo(1); // recovery leaves it durable
    }
    assertThat(ws.ledger()).hasSize(1);
  }

  /** The workspace with write_file declared unreceipted (D23). */
  static final class Unreceipted extends ForwardingAdapter {
    Unreceipted(InMemoryWorkspace ws) {
      super(ws);
    }

    @Override
    public List<ActionSpec> actionSpecs() {
      return delegate.actionSpecs().stream()
          .map(s -> s.kind().equals("write_file") ? UnreceiptedSpec.of(s) : s)
          .toList();
    }
  }
}
