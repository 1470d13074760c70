package dev.ratchet.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Figure 7's CPU rows: cost per step on each side, their ratio and the ceiling it implies. */
class CpuRowTest {
  private static final long MS = 1_000_000L;

  private static CpuRow.Cost cost(String db, long clientMs, Map<String, Long> serverMs, long n) {
    Optional<Map<String, Long>> server =
        serverMs == null
            ? Optional.empty()
            : Optional.of(
                Map.copyOf(
                    serverMs.entrySet().stream()
                        .collect(
                            java.util.stream.Collectors.toMap(
                                Map.Entry::getKey, e -> e.getValue() * MS))));
    return new CpuRow.Cost(new CpuMeter.Usage(clientMs * MS, server), db, n);
  }

  @Test
  void eachSideIsChargedItsJvmAndItsOwnDatabasesServerTime() {
    // Ratchet: 600 ms JVM + 900 ms on "test" over 1,000 steps, while DBOS's autovacuum ran 400 ms
    // on its database; DBOS: 150 + 250 over 2,000 steps.
    CpuRow.Cost ours = cost("test", 600, Map.of("test", 900L, "dbos", 400L, "", 50L), 1_000);
    CpuRow.Cost theirs = cost("dbos", 150, Map.of("dbos", 250L, "", 20L), 2_000);
    Row row = CpuRow.of(8, 1_000, 16, ours, theirs, 2);
    assertThat(row.ratchet()).isEqualTo("1.500 ms (JVM 0.600 + server 0.900)");
    assertThat(row.baseline()).isEqualTo("0.200 ms (JVM 0.075 + server 0.125) (DBOS)");
    assertThat(row.ratio()).isEqualTo(7.5);
    assertThat(row.measure()).contains("its database's server processes", "8 runs", "16 B");
    assertThat(row.boundBy()).contains("2 cores", "1,333 steps/s for Ratchet", "10,000 for DBOS");
    assertThat(row.note()).contains("0.050 ms per step in Ratchet's phases and 0.010 in DBOS's");
  }

  @Test
  void withoutTheServerBothSidesCountTheJvmOnly() {
    Row row =
        CpuRow.of(
            1, 1_000, 16, cost("test", 600, null, 1_000), cost("dbos", 150, Map.of(), 1_000), 2);
    assertThat(row.ratchet()).isEqualTo("0.600 ms (JVM only)");
    assertThat(row.baseline()).isEqualTo("0.150 ms (JVM only) (DBOS)");
    assertThat(row.ratio()).isEqualTo(4.0);
    assertThat(row.measure()).contains("server not visible", "1 run vs DBOS 1 workflow");
    assertThat(row.note()).contains("not visible");
  }

  @Test
  void aPhaseWithoutStepsHasNoCostPerStep() {
    assertThatThrownBy(() -> cost("test", 1, Map.of(), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("steps must be positive");
  }

  @Test
  void theCeilingIsTheCoresOverTheCost() {
    assertThat(CpuRow.ceiling(2, 0.5)).isEqualTo(4_000.0);
  }
}
