package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.Run;
import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.ForwardingAdapter;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.store.Fence;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.RuntimeFixture;
import dev.ratchet.testkit.ThrowawayPostgres;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * PostgreSQL stopped and restarted mid-run, on a cluster of the test's own ({@link
 * ThrowawayPostgres}; the shared service is never stopped). While the server is down the runtime
 * fails closed with {@code STORE_UNAVAILABLE} and writes nothing twice (a locally valid lease, D22,
 * may carry one committed intent to the adapter, whose receipt then waits for the store); after the
 * restart the run goes on. The server is also killed between a write's external effect and its
 * receipt commit: a recoverer reconciles it from the adapter's receipt. The workspace's own ledger
 * shows each write exactly once.
 */
@RequiresPostgres
class PostgresRestartTest {

  private static JsonObject write(String path, String content) {
    return JsonObject.builder().put("path", path).put("content", content).build();
  }

  private static void assertUnavailable(Throwable t) {
    assertThat(t).isInstanceOf(RatchetException.class);
    assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
  }

  /**
   * Waits until the store answers a read again. After a restart the pool reconnects within a few
   * seconds (HikariCP backs off up to 5 s between attempts); until then every call fails closed.
   */
  private static int awaitStore(JdbcStore store) throws InterruptedException {
    int refused = 0;
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      try {
        store.runs();
        return refused;
      } catch (RatchetException e) {
        assertThat(e.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
        assertThat(System.nanoTime()).as("the store did not come back").isLessThan(deadline);
        refused++;
        Thread.sleep(100);
      }
    }
  }

  @Test
  @Timeout(300)
  void whileTheServerIsDownTheRunFailsClosedAndAfterTheRestartItGoesOnWithoutDuplicates()
      throws Exception {
    Optional<Path> bin = ThrowawayPostgres.binaries();
    if (bin.isEmpty() && Postgres.REQUIRED) {
      throw new IllegalStateException("CI=true requires the PostgreSQL server binaries (initdb)");
    }
    Assumptions.assumeTrue(bin.isPresent(), "no PostgreSQL server binaries (initdb) here");
    try (ThrowawayPostgres cluster = ThrowawayPostgres.start(bin.get());
        PgSchema schema = PgSchema.create(cluster.url()).pinClock();
        JdbcStore jdbc =
            JdbcStore.open(
                schema.worker(), PgSchema.options().withBusyTimeout(Duration.ofMillis(700)))) {
      ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
      PinnedStore store = schema.pinned(jdbc, clock, false);
      RuntimeFixture f = new RuntimeFixture(5, clock, store, store);
      TaskSpec task = f.task();
      InMemoryWorkspace ws = f.workspace();
      AtomicInteger executes = new AtomicInteger();
      boolean[] killAfterEffect = {false};
      ForwardingAdapter adapter =
          new ForwardingAdapter(ws) {
            @Override
            public AdapterOutcome execute(
                WriteIntent intent, String key, Fence fence, ApprovalBinding approval) {
              executes.incrementAndGet();
              AdapterOutcome out = delegate.execute(intent, key, fence, approval);
              if (killAfterEffect[0]) {
                killAfterEffect[0] = false;
                try {
                  cluster.stopImmediately(); // the effect is external; the receipt is not stored
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              }
              return out;
            }
          };

      Run run = f.ratchet("w1").start(task, "run-1", adapter);
      run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
      assertThat(run.execute("a1").kind()).isEqualTo(StepOutcome.Kind.EXECUTED);
      run.propose(run.action("a2", "append_file", write("log.txt", "first\n")));
      long intentGeneration = run.generation();

      // ---- down: every commit fails closed; a2 runs once, its receipt only in memory ----
      cluster.stopImmediately();
      // D22: the lease is valid locally (no store read per call) and a write's receipt rides on
      // the run's next commit, so a2's pending intent executes once with no store call.
      assertThat(run.execute("a2").kind()).isEqualTo(StepOutcome.Kind.EXECUTED);
      assertUnavailable(catchThrowable(run::flush));
      assertUnavailable(catchThrowable(() -> f.ratchet("w2").resume(task, "run-1", adapter)));
      assertUnavailable(catchThrowable(() -> JdbcStore.open(schema.worker(), PgSchema.options())));
      assertThat(executes.get()).isEqualTo(2);
      assertThat(ws.ledger()).hasSize(2);

      // ---- restarted: the same worker makes the carried receipt durable and goes on ----
      cluster.start();
      awaitStore(jdbc);
      run.flush();
      assertThat(run.generation()).isGreaterThan(intentGeneration);
      assertThat(ws.ledger()).hasSize(2);

      // ---- killed between the external effect and the receipt commit ----
      run.propose(run.action("a3", "append_file", write("log.txt", "second\n")));
      killAfterEffect[0] = true;
      assertThat(run.execute("a3").kind()).isEqualTo(StepOutcome.Kind.EXECUTED); // D22: in memory
      assertUnavailable(catchThrowable(run::flush)); // the store is gone: it never becomes durable
      assertThat(ws.ledger()).hasSize(3);
      cluster.start();
      awaitStore(jdbc);
      clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1)); // w1 is gone; its lease lapses
      Run recovered = f.ratchet("w2").resume(task, "run-1", adapter);
      assertThat(recovered.recovery().did()).isEqualTo(dev.ratchet.outcome.Recovery.Did.RECONCILED);
      recovered.apply(
          recovered.action("t", "run_tests", JsonObject.builder().put("target", "unit").build()));
      recovered.apply(recovered.action("done", "finish", JsonObject.EMPTY));
      assertThat(recovered.state().phase()).isEqualTo(Phase.COMPLETED);

      List<String> keys = ws.ledger();
      assertThat(keys).hasSize(3);
      assertThat(Set.copyOf(keys)).hasSize(3);
      assertThat(executes.get()).isBetween(3, 4);
      assertThat(ws.files().get("log.txt")).isEqualTo("first\nsecond\n");
    }
  }
}
