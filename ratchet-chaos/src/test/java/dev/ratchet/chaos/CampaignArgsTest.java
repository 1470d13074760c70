package dev.ratchet.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Argument parsing, the results file, and resuming a campaign by seed range. */
class CampaignArgsTest {
  @TempDir Path dir;

  @Test
  void argumentsParseAndBadOnesAreRefused() {
    Campaign.Args a =
        Campaign.Args.parse(
            new String[] {
              "crash", "--seed-from", "40", "--trials", "3", "--full", "--results", "r"
            });
    assertThat(a.campaign()).isEqualTo("crash");
    assertThat(a.seedFrom()).isEqualTo(40);
    assertThat(a.trials()).isEqualTo(3);
    assertThat(a.mode()).isEqualTo(Mode.FULL);
    assertThat(a.reproduce(41))
        .isEqualTo(
            "mvn -B -Pchaos -pl ratchet-chaos -am package -DskipTests -Dchaos.args=\"crash"
                + " --seed-from 41 --trials 1 --full --results target/chaos-repro\"");
    assertThatThrownBy(() -> Campaign.Args.parse(new String[] {"tamper", "--bogus"}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Campaign.trials("nope")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () ->
                Campaign.Args.parse(
                    new String[] {"crash", "--smoke", "--report", "docs/RELIABILITY.md"}))
        .hasMessageContaining("--report");
    assertThatThrownBy(() -> Campaign.Args.parse(new String[] {"report", "--results", "r"}))
        .hasMessageContaining("--out");
    assertThat(
            Campaign.Args.parse(new String[] {"report", "--results", "r", "--out", "x.md"})
                .report())
        .isEqualTo(Path.of("x.md"));
  }

  @Test
  void theResultsFileAccumulatesAndRecordedSeedsAreSkipped() {
    ResultsFile f = new ResultsFile(dir, "tamper", Mode.SMOKE);
    f.append(new TrialResult(1, Map.of("mutations", 5L), List.of()));
    f.append(new TrialResult(2, Map.of("mutations", 6L), List.of("bad\tthing")));
    List<TrialResult> read = f.read();
    assertThat(read).hasSize(2);
    assertThat(read.get(0).passed()).isTrue();
    assertThat(read.get(1).passed()).isFalse();
    assertThat(read.get(1).counter("mutations")).isEqualTo(6);
    // Seeds 1 and 2 are recorded: resuming the range [1, 3) runs nothing and reports the file.
    Campaign.Summary s =
        Campaign.run(
            Campaign.Args.parse(
                new String[] {
                  "tamper",
                  "--seed-from",
                  "1",
                  "--trials",
                  "2",
                  "--smoke",
                  "--results",
                  dir.toString()
                }),
            new PrintStream(OutputStream.nullOutputStream()));
    assertThat(s.range()).isEmpty();
    assertThat(s.skipped()).isEqualTo(2);
    assertThat(s.trialsInFile()).isEqualTo(2);
    assertThat(s.failedInFile()).isEqualTo(1);
    assertThat(s.totals().get("mutations")).isEqualTo(11);
  }
}
