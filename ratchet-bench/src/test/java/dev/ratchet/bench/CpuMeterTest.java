package dev.ratchet.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Figure 7's CPU meter: the server's listed processes, their on-CPU time read from {@code /proc},
 * charged by database over a phase.
 */
class CpuMeterTest {
  @TempDir Path proc;
  private final Map<Integer, String> listed = new HashMap<>();

  private void process(int pid, String database, long nanos) throws IOException {
    Path dir = Files.createDirectories(proc.resolve(Integer.toString(pid)));
    Files.writeString(dir.resolve("schedstat"), nanos + " 20 3\n");
    listed.put(pid, database);
  }

  private CpuMeter meter() {
    return new CpuMeter(proc, () -> Map.copyOf(listed));
  }

  @Test
  void aPhaseChargesEachDatabaseWithTheTimeItsProcessesSpentInIt() throws IOException {
    process(101, "test", 1_000);
    process(102, "test", 5_000);
    process(103, "ratchet_bench_dbos", 7_000);
    process(104, "", 300); // the WAL writer
    CpuMeter.Sample before = meter().read();
    process(101, "test", 1_600);
    process(103, "ratchet_bench_dbos", 7_050);
    process(104, "", 420);
    process(105, "ratchet_bench_dbos", 900); // an autovacuum worker that started in the phase
    CpuMeter.Usage used = meter().read().since(before);
    assertThat(used.server("test")).contains(600L);
    assertThat(used.server("ratchet_bench_dbos")).contains(50L + 900L);
    assertThat(used.server("")).contains(120L);
    assertThat(used.server("postgres")).contains(0L);
  }

  @Test
  void aProcessThatEndedInThePhaseIsLostNotNegative() throws IOException {
    process(101, "test", 1_000);
    process(102, "test", 5_000);
    CpuMeter.Sample before = meter().read();
    listed.remove(102);
    process(101, "test", 1_200);
    assertThat(meter().read().since(before).server("test")).contains(200L);
  }

  @Test
  void aListedProcessNotOnThisMachineIsSkippedAndNoneVisibleIsUnknown() {
    listed.put(999, "test"); // no /proc entry: the server runs elsewhere
    assertThat(meter().server()).isEmpty();
    CpuMeter.Usage used = meter().read().since(meter().read());
    assertThat(used.serverByDatabase()).isEmpty();
    assertThat(used.server("test")).isEmpty();
  }

  @Test
  void usagesAddUpAndUnknownStaysUnknown() {
    CpuMeter.Usage a = new CpuMeter.Usage(100, Optional.of(Map.of("test", 10L)));
    CpuMeter.Usage b = new CpuMeter.Usage(60, Optional.of(Map.of("test", 5L, "", 2L)));
    assertThat(CpuMeter.Usage.ZERO.plus(a).plus(b))
        .isEqualTo(new CpuMeter.Usage(160, Optional.of(Map.of("test", 15L, "", 2L))));
    CpuMeter.Usage unknown = new CpuMeter.Usage(7, Optional.empty());
    assertThat(a.plus(unknown).serverByDatabase()).isEmpty();
    assertThat(a.plus(unknown).clientNanos()).isEqualTo(107);
  }

  @Test
  void theJvmSideAdvancesWithWork() {
    long before = meter().read().clientNanos();
    long sink = 0;
    for (int i = 0; i < 20_000_000; i++) {
      sink += Long.hashCode(sink ^ i);
    }
    assertThat(meter().read().clientNanos()).as("sink %d", sink).isGreaterThan(before);
  }

  @Test
  void aMalformedSchedstatNamesItself() {
    assertThat(CpuMeter.onCpuNanos("42 7 1\n")).isEqualTo(42);
    assertThatThrownBy(() -> CpuMeter.onCpuNanos("x 7 1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a schedstat line: 'x 7 1'");
    assertThatThrownBy(() -> CpuMeter.onCpuNanos("-5 0 0"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
