package dev.ratchet.browser;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.model.Phase;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.testkit.RuntimeFixture;
import dev.ratchet.testkit.SeededEntropy;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The runtime drives a browser task to completion; the service counts each order once. */
class BrowserRuntimeTest {
  @Test
  void aRunOrdersThroughTheWebFrontEndAndCompletesVerified() throws Exception {
    Path dir = Files.createTempDirectory("ratchet-browser-run");
    RuntimeFixture f = RuntimeFixture.inMemory(BrowserRuns.SEED);
    try (ReferenceService service =
            ReferenceService.start(dir.resolve("ledger.db"), 0, f.clock, new SeededEntropy(3));
        BrowserAdapter adapter = WebLedger.adapter(service, CrashSeam.NONE);
        Run run = f.ratchet("worker-1").start(BrowserRuns.task("acct-r"), "run-r", adapter)) {
      BrowserRuns.drive(run, "acct-r");
      assertThat(run.state().phase())
          .as("stop reason %s", run.state().stopReason())
          .isEqualTo(Phase.COMPLETED);
      assertThat(WebLedger.orders(service, "acct-r")).isEqualTo(2);
    }
  }
}
