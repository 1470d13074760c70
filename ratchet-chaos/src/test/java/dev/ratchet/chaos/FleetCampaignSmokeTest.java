package dev.ratchet.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker-fleet chaos campaign in smoke mode, run by {@code mvn verify}: four ledger runs, three
 * real {@code ratchet worker} JVMs on 1.5 s leases, two of them SIGKILLed while they hold runs and
 * restarted by the supervisor, no command typed after the enqueue; every run ends completed and
 * each order is in its reference service's ledger exactly once.
 */
class FleetCampaignSmokeTest {
  @TempDir Path work;

  @Test
  void workersKilledAndRestartedWithNoCommandTypedEndEveryRunWithEachOrderOnce() throws Exception {
    FleetBenchSmokeTest.needPostgres();
    FleetCampaign.Outcome o = FleetCampaign.run(work, 1, 4, 2);
    System.out.println(FleetCampaign.summary(1, o));
    assertThat(o.failures()).isEmpty();
    assertThat(o.completed()).isEqualTo(4);
    // Real kills of busy workers: each held at least one run, taken over by another worker.
    assertThat(o.kills()).isNotEmpty().allSatisfy(k -> assertThat(k.runs()).isNotEmpty());
  }
}
