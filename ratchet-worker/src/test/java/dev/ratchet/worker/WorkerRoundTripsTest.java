package dev.ratchet.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.json.JsonObject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The claim path's round trips per run, counted (issue 38): every call the worker and the runtime
 * make to the store SPI, for a run of three steps driven from claim to end. A run under its first
 * lease is started without a read; its first commit, one commit per step, and the end of the run is
 * one call that finishes the row and releases the lease; the run's close releases nothing more.
 */
class WorkerRoundTripsTest {
  private static final Duration TTL = Duration.ofSeconds(30);
  private static final int STEPS = 3;

  @Test
  void aThreeStepRunCostsOneClaimItsCommitsAndOneFinishThatReleases() throws Exception {
    try (WorkerFixture fx = new WorkerFixture(TTL)) {
      fx.store.schedule(fx.task.taskId(), "r1", "steps", "ref");
      fx.counted.take();
      Worker w =
          fx.worker(
              new Driver() {
                @Override
                public String name() {
                  return "steps";
                }

                @Override
                public DriveResult drive(DriveContext ctx) {
                  for (int i = 1; i <= STEPS; i++) {
                    ctx.run()
                        .apply(
                            ctx.run()
                                .action(
                                    "read-" + i,
                                    "read_file",
                                    JsonObject.builder().put("path", "app.py").build()));
                  }
                  return DriveResult.ended("three steps");
                }
              },
              new WorkerOptions("w1", 1, Duration.ofMillis(50), TTL, true));
      assertThat(w.step()).isTrue();
      Map<String, Integer> calls = fx.counted.take();
      assertThat(calls)
          .as("store calls for one run: claim, commits, finish+release")
          .containsExactlyInAnyOrderEntriesOf(
              Map.of("claim", 1, "commit", 1 + 2 * STEPS, "finishAndRelease", 1));
      assertThat(fx.lines()).contains("worker w1 run r1: ended (three steps)");
      assertThat(fx.store.acquire("r1", "w2", TTL)).as("the lease was released").isPresent();
      assertThat(fx.store.claim("w2", TTL)).as("the row ended").isEmpty();
    }
  }
}
