package dev.ratchet.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker-scaling bench in smoke mode (30 runs per phase, one kill), run by {@code mvn verify}
 * to prove it works; no figure is asserted (BENCHMARKS.md has the full run). Real {@code ratchet
 * worker} JVMs on the shared PostgreSQL; required when {@code CI=true}, skipped elsewhere.
 */
class FleetBenchSmokeTest {
  @TempDir Path work;

  static void needPostgres() {
    String problem = PgServer.problem();
    if (problem != null) {
      String why = "PostgreSQL at " + PgServer.SHARED_URL + " is not reachable (" + problem + ")";
      if (PgServer.required()) {
        throw new IllegalStateException("CI=true requires " + why);
      }
      Assumptions.abort(why);
    }
  }

  @Test
  void oneTwoAndFourWorkerJvmsDrainTheQueueAndAKilledWorkersRunsAreClaimedAgain() throws Exception {
    needPostgres();
    FleetBench.Result r = FleetBench.run(work, 30, 1);
    System.out.println(r.table());
    assertThat(r.phases()).extracting(FleetBench.Phase::workers).containsExactly(1, 2, 4);
    assertThat(r.phases()).allSatisfy(p -> assertThat(p.seconds()).isPositive());
    assertThat(r.takeover().kills()).isEqualTo(1);
    // Each run the killed worker held was claimed by another worker after the kill.
    assertThat(r.takeover().millis()).isNotEmpty().allSatisfy(ms -> assertThat(ms).isNotNegative());
    assertThat(r.table()).contains("| 4 |", "claim latency p50");
  }
}
