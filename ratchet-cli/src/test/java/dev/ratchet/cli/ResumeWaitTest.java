package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.ops.LeaseWait;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17: {@code resume --wait} waits, bounded, for another worker's lease to lapse instead of
 * failing FENCED, and says what it waits for. The harness clock is moved by hand, so the test waits
 * for no wall-clock lease.
 */
class ResumeWaitTest {
  @TempDir Path dir;

  @Test
  void resumeWaitsForALapsingLeaseAndGivesUpAfterItsBound() throws Exception {
    MemoryHarness h = new MemoryHarness(dir, 81);
    assertThat(h.run("keys", "generate").exit()).isZero();
    Path task = h.taskFile("t.json", "\"append_file\"", MemoryHarness.PLAN);
    assertThat(h.run("run", task.toString(), "--run-id", "r1").exit()).isEqualTo(4);
    // A worker that died holding the lease: it lives out its 30 s.
    assertThat(h.store.acquire("r1", "dead-worker", Duration.ofSeconds(30))).isPresent();

    MemoryHarness.Result fenced = h.run("resume", "r1");
    assertThat(fenced.exit()).isEqualTo(3);
    assertThat(fenced.err()).contains("dead-worker").contains("'ratchet resume RUN_ID --wait'");

    MemoryHarness.Result gaveUp =
        whileTimePasses(h, Duration.ofSeconds(6), "resume", "r1", "--wait=5s");
    assertThat(gaveUp.exit()).isEqualTo(3);
    assertThat(gaveUp.out()).contains("run r1 is leased by dead-worker").contains("up to 5s");
    assertThat(gaveUp.err()).contains("still leased by dead-worker").contains("after waiting 5s");

    MemoryHarness.Result resumed =
        whileTimePasses(h, Duration.ofSeconds(25), "resume", "r1", "--wait");
    assertThat(resumed.out()).contains("up to 60s").contains("the lease lapsed after");
    assertThat(resumed.exit()).as(resumed.out() + resumed.err()).isEqualTo(4);
    assertThat(resumed.err()).contains("waiting for approval");
  }

  /**
   * Runs a command on another thread; once that thread is inside the lease wait (seen in its
   * stack), moves the harness clock by {@code step}, and returns the command's result.
   */
  private static MemoryHarness.Result whileTimePasses(
      MemoryHarness h, Duration step, String... args) throws Exception {
    CompletableFuture<MemoryHarness.Result> f = CompletableFuture.supplyAsync(() -> h.run(args));
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!f.isDone() && !waitingForALease() && System.nanoTime() < until) {
      Thread.sleep(10);
    }
    assertThat(f).as("waits while the lease is held").isNotDone();
    h.clock.advance(step);
    return f.get(60, TimeUnit.SECONDS);
  }

  private static boolean waitingForALease() {
    return Thread.getAllStackTraces().values().stream()
        .flatMap(java.util.Arrays::stream)
        .anyMatch(e -> e.getClassName().equals(LeaseWait.class.getName()));
  }
}
