package dev.ratchet.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness works end to end on a real SQLite file, with tiny counts: every figure appears, every
 * measured ratio is a finite positive number, and commits per write step comes from real counts.
 * The numbers themselves are not checked: goals are not test assertions, and a smoke run's figures
 * mean nothing.
 */
class HarnessSmokeTest {
  @TempDir static Path dir;
  private static Report report;

  @BeforeAll
  static void runTheHarnessOnce() throws Exception {
    report = Harness.run(HarnessConfig.smoke(), dir, null);
  }

  @Test
  void aSmokeRunPrintsEveryFigureWithFiniteRatios() {
    List<Row> rows = report.rows();
    Set<String> figures = new TreeSet<>();
    rows.forEach(r -> figures.add(r.figure()));
    // 7 is the peer (DBOS): measured under -Pdbos, otherwise listed as not measured, with why.
    assertThat(figures).containsExactly("1", "2", "3", "4", "5", "6", "7", "8");
    for (Row r : rows) {
      if (r.measured() && r.measure().startsWith("read transactions per write step")) {
        assertThat(r.ratio()).as(r.measure()).isFinite().isNotNegative(); // 0 is the goal
      } else if (r.measured()) {
        assertThat(r.ratio()).as(r.measure()).isFinite().isPositive();
      } else {
        assertThat(r.note()).as(r.measure()).startsWith("not measured: ");
      }
    }
    assertThat(rows.stream().filter(Row::measured).map(Row::figure))
        .contains("1", "2", "3", "5", "6");
    if (rows.stream().anyMatch(r -> r.figure().equals("4") && r.measured())) {
      // Figure 4's bound beside each of its PostgreSQL rows: the rows of a step written alone.
      assertThat(rows.stream().filter(Row::measured).map(Row::measure))
          .anyMatch(m -> m.startsWith("the rows of a write step alone, 1 client: a mark,"))
          .anyMatch(m -> m.startsWith("the rows of a write step alone, 8 clients: a mark,"))
          // ADR 0141: the batched commit beside the same runs unbatched.
          .anyMatch(m -> m.startsWith("write steps/s, 8 runs, PostgreSQL, batched commit"));
    }
    String table = report.toMarkdown();
    assertThat(table)
        .contains("| # | measure | Ratchet | raw baseline (same run) | ratio |")
        .contains("trace length 10", "16 runs", "heap for 60 idle runs")
        // D20: recovery and one authenticated lookup, each with its flatness row and target.
        .contains("authenticated lookup at trace length 10", "lookup at trace ")
        .containsPattern("recovery at trace [0-9,]+ vs 10 \\(flatness\\) \\|[^\\n]*≤ 1\\.2×");
  }

  @Test
  void commitsPerWriteStepIsCountedNotAssumed() {
    Report.CommitCounts c = report.commitCounts();
    assertThat(c.writeSteps()).isPositive();
    // Each write step commits its intent (D22: its receipt rides on the next commit): at least one
    // commit each.
    assertThat(c.checkpointCommits()).isGreaterThanOrEqualTo(c.writeSteps());
    assertThat(c.transactions()).isPositive();
    Row perStep =
        report.rows().stream()
            .filter(r -> r.measure().startsWith("checkpoint commits per write step"))
            .findFirst()
            .orElseThrow();
    assertThat(perStep.ratio()).isEqualTo((double) c.checkpointCommits() / c.writeSteps());
  }
}
