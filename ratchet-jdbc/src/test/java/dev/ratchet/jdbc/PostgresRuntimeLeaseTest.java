package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.Run;
import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.ForwardingAdapter;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.store.CommitRefused;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.Fence;
import dev.ratchet.store.RecordSet;
import dev.ratchet.testkit.CrashPlan;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.LyingLeases;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.RuntimeFixture;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SPEC §5 with the runtime on PostgreSQL (worker role, database clock pinned to the fixture's
 * manual clock): a worker whose lease lapses after it revalidated is stopped by the adapter's fence
 * check with nothing written; a late result is fenced; two recoverers of one run reconcile once and
 * the loser gets {@code LostRace}.
 */
@RequiresPostgres
class PostgresRuntimeLeaseTest {
  private static PgSchema schema;
  private static JdbcStore jdbc;

  private ManualClock clock;
  private RuntimeFixture f;
  private TaskSpec task;
  private InMemoryWorkspace ws;

  @BeforeAll
  static void open() {
    schema = PgSchema.create().pinClock();
    jdbc = schema.openWorker();
  }

  @AfterAll
  static void drop() {
    if (jdbc != null) {
      jdbc.close();
    }
    if (schema != null) {
      schema.close();
    }
  }

  @BeforeEach
  void fixture() {
    schema.truncate();
    clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
    PinnedStore store = schema.pinned(jdbc, clock, false);
    f = new RuntimeFixture(41, clock, store, store);
    task = f.task();
    ws = f.workspace();
  }

  private static JsonObject write(String path, String content) {
    return JsonObject.builder().put("path", path).put("content", content).build();
  }

  private static void assertFenced(Throwable t) {
    assertThat(t).isInstanceOf(RatchetException.class);
    assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.FENCED);
  }

  private long generation(String runId) {
    return f.store.load(task.taskId(), runId).orElseThrow().generation();
  }

  private long reconciledEvents(String runId) {
    return f.store.records(task.taskId(), runId, RecordSet.TRACE, 1, 1000).stream()
        .filter(r -> r.body().contains("\"outcome\":\"reconciled\""))
        .count();
  }

  @Test
  void aLeaseThatLapsesBetweenRevalidationAndTheAdapterCallIsRefusedByTheAdapter() {
    long[] afterB = new long[2];
    // w1 revalidates its lease on the database (a real check, which passes); before its call
    // reaches the workspace, the lease lapses on the database clock, w2 takes the run over,
    // executes the pending write once and appends; only then does w1's call arrive.
    EnvironmentAdapter late =
        new ForwardingAdapter(ws) {
          @Override
          public AdapterOutcome execute(
              WriteIntent intent, String key, Fence fence, ApprovalBinding approval) {
            clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
            assertFenced(catchThrowable(() -> f.leases.check(fence)));
            Run b = f.ratchet("w2").resume(task, "run-1", ws);
            assertThat(b.recovery().did())
                .isEqualTo(dev.ratchet.outcome.Recovery.Did.EXECUTED_ONCE);
            b.apply(b.action("b1", "append_file", write("log.txt", "b\n")));
            afterB[0] = ws.ledger().size();
            afterB[1] = b.generation();
            return delegate.execute(intent, key, fence, approval);
          }
        };
    Run a = f.ratchet("w1").start(task, "run-1", late);
    a.propose(a.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    Throwable t = catchThrowable(() -> a.execute("a1"));
    assertFenced(t);
    assertThat(t).hasMessageContaining("fencing token");
    assertThat(afterB[0]).isEqualTo(2);
    assertThat(ws.ledger()).hasSize(2); // w2's write and append; nothing from w1
    assertThat(ws.files().get("log.txt")).isEqualTo("b\n");
    assertThat(generation("run-1")).isEqualTo(afterB[1]);
    assertFenced(
        catchThrowable(() -> a.apply(a.action("a2", "append_file", write("log.txt", "a")))));
    assertThat(ws.ledger()).hasSize(2);
  }

  @Test
  void aLateResultAfterLeaseExpiryIsRefusedAndWritesNothing() {
    Run a = f.ratchet("w1").start(task, "run-1", ws);
    a.propose(a.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
    Run b = f.ratchet("w2").resume(task, "run-1", ws);
    assertThat(b.recovery().did()).isEqualTo(dev.ratchet.outcome.Recovery.Did.EXECUTED_ONCE);
    long gen = b.generation();
    assertFenced(catchThrowable(() -> a.execute("a1")));
    assertThat(ws.ledger()).hasSize(1);
    assertThat(generation("run-1")).isEqualTo(gen);
  }

  @Test
  void twoInterleavedRecoverersOneReconcilesAndTheOtherLosesTheRace() {
    CrashPlan plan = new CrashPlan();
    Run a = f.ratchet("w1", plan).start(task, "run-1", ws);
    a.propose(a.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    plan.arm(CrashPoint.BEFORE_RECEIPT_COMMIT);
    catchThrowable(() -> a.execute("a1"));
    clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
    long before = generation("run-1");
    Run[] second = new Run[1];
    // r1 has loaded generation `before` and asks the adapter for the receipt; at that moment its
    // lease lapses on the database clock and r2 recovers the same run completely.
    EnvironmentAdapter interleaving =
        new ForwardingAdapter(ws) {
          private boolean fired;

          @Override
          public Optional<Receipt> lookup(String key) {
            if (!fired) {
              fired = true;
              clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
              second[0] = f.ratchet("r2").resume(task, "run-1", ws);
            }
            return delegate.lookup(key);
          }
        };
    // r1's own lease pre-checks are fooled, so the store's compare-and-set is what stops it.
    RuntimeFixture fooled = new RuntimeFixture(41, clock, f.store, new LyingLeases(f.leases));
    Throwable t = catchThrowable(() -> fooled.ratchet("r1").resume(task, "run-1", interleaving));
    assertThat(second[0].recovery().did()).isEqualTo(dev.ratchet.outcome.Recovery.Did.RECONCILED);
    assertThat(t).isInstanceOf(CommitRefused.class);
    assertThat(((CommitRefused) t).result()).isEqualTo(new CommitResult.LostRace(before + 1));
    assertThat(generation("run-1")).isEqualTo(before + 1);
    assertThat(reconciledEvents("run-1")).isEqualTo(1);
    assertThat(ws.ledger()).hasSize(1);
  }

  @Test
  void twoSequentialRecoverersReconcileTheSameReceiptOnce() {
    CrashPlan plan = new CrashPlan();
    Run a = f.ratchet("w1", plan).start(task, "run-1", ws);
    a.propose(a.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    plan.arm(CrashPoint.BEFORE_RECEIPT_COMMIT);
    catchThrowable(() -> a.execute("a1"));
    clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
    Run first = f.ratchet("r1").resume(task, "run-1", ws);
    assertThat(first.recovery().did()).isEqualTo(dev.ratchet.outcome.Recovery.Did.RECONCILED);
    clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
    Run second = f.ratchet("r2").resume(task, "run-1", ws);
    assertThat(second.recovery().did()).isEqualTo(dev.ratchet.outcome.Recovery.Did.NOTHING);
    assertFenced(
        catchThrowable(
            () ->
                first.propose(
                    first.action(
                        "x", "read_file", JsonObject.builder().put("path", "app.py").build()))));
    assertThat(reconciledEvents("run-1")).isEqualTo(1);
    assertThat(ws.ledger()).hasSize(1);
  }
}
