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

  @Test
  void aPageChangedUnderTheRunByAnotherActorMakesThePendingWriteStale() throws Exception {
    Path dir = Files.createTempDirectory("ratchet-browser-drift");
    RuntimeFixture f = RuntimeFixture.inMemory(BrowserRuns.SEED + 1);
    try (ReferenceService service =
            ReferenceService.start(dir.resolve("ledger.db"), 0, f.clock, new SeededEntropy(4));
        BrowserAdapter adapter = WebLedger.adapter(service, CrashSeam.NONE);
        Run run = f.ratchet("worker-1").start(BrowserRuns.task("acct-s"), "run-s", adapter)) {
      run.propose(run.action("w1", "fill_and_submit", WebLedger.order("acct-s", "sku-1", 1, 100)));
      // Another actor orders through the service while the run's write is pending.
      service
          .adapter()
          .execute(
              dev.ratchet.adapters.Ledgers.createOrder("acct-s", "other", 1, 5),
              "other-actor",
              new dev.ratchet.store.Fence("someone-else", "w", 1),
              dev.ratchet.adapter.ApprovalBinding.NONE);
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> run.execute("w1"))
          .isInstanceOfSatisfying(
              dev.ratchet.error.RatchetException.class,
              e -> assertThat(e.code()).isEqualTo(dev.ratchet.error.ErrorCode.STALE_OBSERVATION));
      // Nothing was clicked: only the other actor's order exists.
      assertThat(WebLedger.orders(service, "acct-s")).isEqualTo(1);
    }
  }
}
