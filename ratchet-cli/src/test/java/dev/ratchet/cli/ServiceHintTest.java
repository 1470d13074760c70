package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.adapter.ForwardingAdapter;
import dev.ratchet.adapter.Observation;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.ops.ServiceAdapter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Issue 17: when the adapter's service is down, the error names the adapter and the hint points at
 * the service, not at {@code --store}; the store's own unavailability keeps the store hint.
 */
class ServiceHintTest {
  @TempDir Path dir;

  @Test
  void anAdaptersUnavailableServiceIsNamedAndTheHintPointsThere() {
    MemoryHarness h = new MemoryHarness(dir, 91);
    RatchetException down =
        new RatchetException(ErrorCode.STORE_UNAVAILABLE, "ledger: connection refused");
    RatchetException marked = ServiceAdapter.opening("ledger", down);
    assertThat(marked.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
    assertThat(marked).hasMessage("adapter 'ledger': ledger: connection refused");
    assertThat(ServiceAdapter.opening("ledger", marked)).as("marked once").isSameAs(marked);
    RatchetException other = RatchetException.contract("x");
    assertThat(ServiceAdapter.opening("ledger", other)).isSameAs(other);

    String service = handled(h, marked);
    assertThat(service).contains("not the store").doesNotContain("check --store");
    String store = handled(h, down);
    assertThat(store).contains("check --store").contains("RATCHET_STORE");
  }

  @Test
  void theCommandLinesAdapterMarksItsCallsFailuresAsTheAdapters() {
    MemoryHarness h = new MemoryHarness(dir, 92);
    ForwardingAdapter failing =
        new ForwardingAdapter(h.workspace) {
          @Override
          public Observation observe() {
            throw new RatchetException(ErrorCode.STORE_UNAVAILABLE, "service down");
          }
        };
    Throwable t =
        org.assertj.core.api.Assertions.catchThrowable(
            () -> ServiceAdapter.wrap(failing).observe());
    assertThat(t).isInstanceOf(ServiceAdapter.Unavailable.class);
    assertThat(t).hasMessage("adapter 'memory-workspace': service down");
  }

  private static String handled(MemoryHarness h, RatchetException e) {
    CommandLine cmd = Main.commandLine(h.services);
    StringWriter sw = new StringWriter();
    cmd.setErr(new PrintWriter(sw));
    assertThat(Errors.handleExecution(e, cmd, null)).isEqualTo(5);
    return sw.toString();
  }
}
