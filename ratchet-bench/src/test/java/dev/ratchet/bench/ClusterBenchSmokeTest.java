package dev.ratchet.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The short smoke of issue 44's bench ({@link ClusterBench}): one round of each arm, one second
 * each, on two databases of the local service standing in for two clusters. It checks that the
 * bench measures what it prints — every counted run made all its commits, both arms ran, the table
 * carries the ratio — never a speed. Required when {@code CI=true}, skipped elsewhere.
 */
class ClusterBenchSmokeTest {
  private static final List<String> CLUSTERS =
      List.of("a=jdbc:postgresql://127.0.0.1:5432/test", "b=jdbc:postgresql://127.0.0.1:5432/root");

  @Test
  void oneRoundOfEachArmCountsRunsWithAllTheirCommitsAndPrintsTheRatio() throws Exception {
    for (String c : CLUSTERS) {
      try (Connection conn = DriverManager.getConnection(c.substring(2), "postgres", null)) {
        conn.isValid(5);
      } catch (SQLException e) {
        if ("true".equals(System.getenv("CI"))) {
          throw new IllegalStateException("CI=true requires PostgreSQL at " + c, e);
        }
        Assumptions.abort("PostgreSQL is not reachable: " + e.getMessage());
      }
    }
    List<ClusterBench.Arm> arms = ClusterBench.run(CLUSTERS, 1, 1, 2, 2);
    assertThat(arms).extracting(ClusterBench.Arm::clusters).containsExactly(1, 2);
    for (ClusterBench.Arm a : arms) {
      assertThat(a.totals().runs()).as("runs of arm " + a.clusters()).isPositive();
      assertThat(a.totals().commits()).isEqualTo(2 * a.totals().runs());
      assertThat(a.totals().claimNanos()).hasSizeGreaterThanOrEqualTo((int) a.totals().runs());
    }
    assertThat(ClusterBench.table(arms, 2, 2, 1)).contains("| 1 | 2 |").contains("ratio 2/1 = ");
  }
}
