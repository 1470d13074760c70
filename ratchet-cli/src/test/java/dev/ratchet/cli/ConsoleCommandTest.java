package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ratchet console} refuses bad options with exit 2 before it listens, and a command line
 * built without the ratchet-console module says so (the server is found by ServiceLoader).
 */
class ConsoleCommandTest {
  @TempDir Path dir;

  @Test
  void badOptionsAreRefusedWithTheFieldAndTheRule() {
    MemoryHarness h = new MemoryHarness(dir, 5);
    MemoryHarness.Result port = h.run("console", "--port", "70000");
    assertThat(port.exit()).isEqualTo(2);
    assertThat(port.err()).contains("--port: must be from 0 to 65535");
    MemoryHarness.Result bind = h.run("console", "--port", "0", "--bind", "no such host.invalid");
    assertThat(bind.exit()).isEqualTo(2);
    assertThat(bind.err()).contains("--bind: 'no such host.invalid' is not an address");
    MemoryHarness.Result session = h.run("console", "--port", "0", "--session-ttl", "forever");
    assertThat(session.exit()).isEqualTo(2);
    assertThat(session.err()).contains("--session-ttl: 'forever' is not a duration like 90s");
    MemoryHarness.Result preview = h.run("console", "--port", "0", "--preview-ttl", "0s");
    assertThat(preview.exit()).isEqualTo(2);
    assertThat(preview.err()).contains("--preview-ttl: '0s' is not a duration");
    // D30: the console takes no private key; the browser signs.
    for (String option : new String[] {"--approver-key", "--reviewer-key", "--operator-key"}) {
      MemoryHarness.Result key = h.run("console", "--port", "0", option, "alice.key");
      assertThat(key.exit()).as(option).isEqualTo(2);
      assertThat(key.err()).contains("Unknown option").contains(option);
    }
  }

  @Test
  void withoutTheConsoleModuleTheCommandSaysSo() {
    MemoryHarness h = new MemoryHarness(dir, 6);
    MemoryHarness.Result r = h.run("console", "--port", "0");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("this build has no console");
  }
}
