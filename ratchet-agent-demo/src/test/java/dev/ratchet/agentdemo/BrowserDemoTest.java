package dev.ratchet.agentdemo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The browser demo end to end, as {@code ratchet demo browser} runs it: worker JVMs driving
 * headless Chromium, Chromium killed mid-step, a real SIGKILL after clicking Pay, and a passing
 * verdict only when the service's own ledger counts one order and one payment.
 */
class BrowserDemoTest {
  @TempDir Path dir;

  @Test
  void theRunOrdersAndPaysOnceThroughThePageDespiteAKilledBrowserAndAKilledWorker() {
    StringWriter text = new StringWriter();
    int exit = BrowserDemo.run(new PrintWriter(text, true), dir);
    String out = text.toString();
    assertThat(exit).as(out).isZero();
    assertThat(out)
        .contains("Chromium killed mid-step (")
        .contains("SIGKILL after clicking Pay (exit 137)")
        .contains("final state: run browser-run completed")
        .containsPattern(
            "chromium killed mid-step +step-0 order form +receipt_at_service +executed")
        .containsPattern("adapter_after_external_commit +step-1 pay form +\\S+ +reconciled")
        .containsPattern("order +1\n")
        .containsPattern("payment +1\n")
        .contains("demo browser passed")
        .doesNotContain("SLF4J");
  }
}
