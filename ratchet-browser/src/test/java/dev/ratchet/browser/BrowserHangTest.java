package dev.ratchet.browser;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.store.Fence;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.SeededEntropy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Chromium hung (SIGSTOP) after the service committed a page write and before the page's answer:
 * the step times out, the hung browser is killed, the write is answered from the service's receipt,
 * and the next write runs in a fresh browser — each order once.
 */
class BrowserHangTest {
  @Test
  void aHungBrowserIsReplacedAndTheWriteAnsweredFromTheServiceReceipt() throws Exception {
    Path dir = Files.createTempDirectory("ratchet-browser-hang");
    AtomicInteger stopped = new AtomicInteger();
    try (ReferenceService service =
            ReferenceService.start(
                dir.resolve("ledger.db"),
                0,
                new ManualClock(Instant.parse("2026-12-06T09:00:00Z")),
                new SeededEntropy(5));
        BrowserAdapter adapter =
            BrowserAdapter.builder(service.uri())
                .pathPrefix("/web/accounts/")
                .form(new PageForm("order", "place-order", true))
                .clientSecret(service.clientSecret())
                .stepTimeout(Duration.ofSeconds(2))
                .build()) {
      service.crashSeam(
          p -> {
            if (p == CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT && stopped.get() == 0) {
              stopped.set(WebLedger.stopChromium());
            }
          });
      Fence fence = new Fence("run-h", "w", 1);
      AdapterOutcome out =
          adapter.execute(
              WebLedger.orderIntent("acct-h", "sku-1", 1, 100),
              "key-h1",
              fence,
              ApprovalBinding.NONE);
      assertThat(stopped.get()).isPositive();
      assertThat(out.kind()).isEqualTo(AdapterOutcome.Kind.EXECUTED);
      assertThat(out.receipt()).isEqualTo(adapter.lookup("key-h1").orElseThrow());
      service.crashSeam(CrashSeam.NONE);
      adapter.execute(
          WebLedger.orderIntent("acct-h", "sku-2", 1, 100), "key-h2", fence, ApprovalBinding.NONE);
      assertThat(WebLedger.orders(service, "acct-h")).isEqualTo(2);
    }
  }
}
