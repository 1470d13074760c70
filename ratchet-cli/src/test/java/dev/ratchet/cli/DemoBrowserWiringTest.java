package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.ops.DemoProgram;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/**
 * {@code ratchet demo browser} reaches its demo through ServiceLoader: the command line compiles
 * against no demo module, and ratchet-agent-demo (with ratchet-browser) is on its run-time class
 * path. The demo itself runs in {@code BrowserDemoTest} (ratchet-agent-demo).
 */
class DemoBrowserWiringTest {
  @Test
  void theBrowserDemoIsAProviderTheDemoCommandFinds() {
    assertThat(ServiceLoader.load(DemoProgram.class).stream().map(p -> p.get().name()))
        .contains("demo", "demo agent", "demo browser");
  }
}
