package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.Run;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.ForwardingAdapter;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.store.CommitRefused;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseStore;
import dev.ratchet.store.RecordSet;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** SPEC §5 on the in-memory components: ownership, fencing, late workers. */
class LeaseTest {
  private final RuntimeFixture f = RuntimeFixture.inMemory(41);
  private final TaskSpec task = f.task();
  private final InMemoryWorkspace ws = f.workspace();

  private static void assertFenced(Throwable t) {
    assertThat(t).isInstanceOf(RatchetException.class);
    assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.FENCED);
  }

  @Test
  void aSecondWorkerCannotResumeALeasedRun() {
    f.ratchet("w1").start(task, "run-1", ws);
    assertFenced(catchThrowable(() -> f.ratchet("w2").resume(task, "run-1", ws)));
  }

  @Test
  void aRunWhoseFirstWorkerDiedBeforeItsFirstCommitStartsOnceTheLeaseExpires() {
    // The first worker took the lease and died before committing anything.
    Lease orphan = f.leases.acquire("run-7", "w-dead", RuntimeFixture.LEASE_TTL).orElseThrow();
    assertFenced(catchThrowable(() -> f.ratchet("w2").start(task, "run-7", ws)));
    f.clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
    Run run = f.ratchet("w2").start(task, "run-7", ws);
    assertThat(run.lease().version()).isGreaterThan(orphan.version());
    assertThat(f.store.load(task.taskId(), "run-7").orElseThrow().generation()).isEqualTo(1);
  }

  @Test
  void aLateResultAfterLeaseExpiryIsRefusedAndWritesNothing() {
    Run a = f.ratchet("w1").start(task, "run-1", ws);
    a.propose(a.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    f.clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
    Run b = f.ratchet("w2").resume(task, "run-1", ws);
    assertThat(b.recovery().did()).isEqualTo(dev.ratchet.outcome.Recovery.Did.EXECUTED_ONCE);
    long gen = b.generation();
    assertFenced(catchThrowable(() -> a.execute("a1")));
    assertThat(ws.ledger()).hasSize(1);
    assertThat(f.store.load(task.taskId(), "run-1").orElseThrow().generation()).isEqualTo(gen);
  }

  @Test
  void theAdapterRefusesAnOlderFenceEvenWhenTheRuntimePreCheckIsFooled() {
    // A lease store whose check always passes: the window between revalidation and the call.
    InMemoryStore memory = (InMemoryStore) f.store;
    LeaseStore lying = new LyingLeases(memory);
    RuntimeFixture g = new RuntimeFixture(42, f.clock, memory, lying);
    InMemoryWorkspace shared = g.workspace();
    Run a = g.ratchet("w1").start(task, "run-9", shared);
    a.propose(a.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    f.clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
    Run b = g.ratchet("w2").resume(task, "run-9", shared);
    b.apply(b.action("b1", "append_file", write("log.txt", "b\n")));
    int effects = shared.ledger().size();
    // a's lease version is older than the newest the adapter saw for the run.
    Throwable t = catchThrowable(() -> a.execute("a1"));
    assertFenced(t);
    assertThat(shared.ledger()).hasSize(effects);
  }

  @Test
  void twoRecoverersReconcileTheSameReceiptOnce() {
    CrashPlan plan = new CrashPlan();
    Run a = f.ratchet("w1", plan).start(task, "run-1", ws);
    a.propose(a.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    plan.arm(CrashPoint.BEFORE_RECEIPT_COMMIT);
    catchThrowable(() -> a.execute("a1"));
    f.clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
    Run first = f.ratchet("r1").resume(task, "run-1", ws);
    assertThat(first.recovery().did()).isEqualTo(dev.ratchet.outcome.Recovery.Did.RECONCILED);
    f.clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
    Run second = f.ratchet("r2").resume(task, "run-1", ws);
    assertThat(second.recovery().did()).isEqualTo(dev.ratchet.outcome.Recovery.Did.NOTHING);
    // The first recoverer's handle is stale now: whatever it tries is refused.
    assertFenced(
        catchThrowable(
            () -> first.propose(first.action("x", "read_file", Scenarios.read("app.py")))));
    long reconciled =
        f.store.records(task.taskId(), "run-1", RecordSet.TRACE, 1, 1000).stream()
            .filter(r -> r.body().contains("\"outcome\":\"reconciled\""))
            .count();
    assertThat(reconciled).isEqualTo(1);
    assertThat(ws.ledger()).hasSize(1);
  }

  @Test
  @Rules("R4.2-recovery")
  void twoInterleavedRecoverersOneReconcilesAndTheOtherLosesTheRace() {
    CrashPlan plan = new CrashPlan();
    Run a = f.ratchet("w1", plan).start(task, "run-1", ws);
    a.propose(a.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    plan.arm(CrashPoint.BEFORE_RECEIPT_COMMIT);
    catchThrowable(() -> a.execute("a1"));
    f.clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
    long before = f.store.load(task.taskId(), "run-1").orElseThrow().generation();
    Run[] second = new Run[1];
    // r1 has loaded generation `before` and asks the adapter for the receipt; at that moment its
    // lease lapses and r2 recovers the same run completely.
    EnvironmentAdapter interleaving =
        new ForwardingAdapter(ws) {
          private boolean fired;

          @Override
          public Optional<Receipt> lookup(String key) {
            if (!fired) {
              fired = true;
              f.clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
              second[0] = f.ratchet("r2").resume(task, "run-1", ws);
            }
            return delegate.lookup(key);
          }
        };
    // r1's own lease pre-checks are fooled (they would refuse it FENCED first), so the store's
    // compare-and-set is what stops it: the generation it loaded is no longer the mark.
    RuntimeFixture fooled = new RuntimeFixture(41, f.clock, f.store, new LyingLeases(f.leases));
    Throwable t = catchThrowable(() -> fooled.ratchet("r1").resume(task, "run-1", interleaving));
    assertThat(second[0].recovery().did()).isEqualTo(dev.ratchet.outcome.Recovery.Did.RECONCILED);
    assertThat(t).isInstanceOf(CommitRefused.class);
    assertThat(((CommitRefused) t).result()).isEqualTo(new CommitResult.LostRace(before + 1));
    assertThat(f.store.load(task.taskId(), "run-1").orElseThrow().generation())
        .isEqualTo(before + 1);
    long reconciled =
        f.store.records(task.taskId(), "run-1", RecordSet.TRACE, 1, 1000).stream()
            .filter(r -> r.body().contains("\"outcome\":\"reconciled\""))
            .count();
    assertThat(reconciled).isEqualTo(1);
    assertThat(ws.ledger()).hasSize(1);
  }
}
