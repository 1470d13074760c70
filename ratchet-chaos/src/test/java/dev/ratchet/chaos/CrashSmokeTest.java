package dev.ratchet.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash campaign in smoke mode, run by {@code mvn verify}: real worker JVMs on a shared SQLite
 * store, killed by crash seams and SIGKILL; and its key-changing canary, which must fail.
 */
class CrashSmokeTest {
  @TempDir Path results;

  private Campaign.Summary run(String... args) {
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    Campaign.Summary s =
        Campaign.run(Campaign.Args.parse(args), new PrintStream(log, true, StandardCharsets.UTF_8));
    System.out.print(log.toString(StandardCharsets.UTF_8));
    return s;
  }

  @Test
  void killedWorkersNeverDuplicateAnEffectNorLoseAReceiptOrARun() {
    Campaign.Summary s =
        run(
            "crash",
            "--seed-from",
            "0",
            "--trials",
            "2",
            "--smoke",
            "--results",
            results.toString());
    assertThat(s.passed()).as(s.range().toString()).isTrue();
    assertThat(s.totals().get("kills_seam") + s.totals().getOrDefault("kills_sigkill", 0L))
        .isGreaterThanOrEqualTo(3);
    assertThat(s.totals().get("runs")).isEqualTo(8);
    assertThat(s.totals()).doesNotContainKeys("duplicates", "lost_receipts", "lost_runs");
    assertThat(s.totals().get("receipts_issued")).isPositive();
  }

  @Test
  void theKeyChangingCanaryMakesTheCampaignFail() {
    Campaign.Summary s =
        run(
            "crash",
            "--seed-from",
            "0",
            "--trials",
            "1",
            "--smoke",
            "--canary",
            "--results",
            results.toString());
    assertThat(s.passed()).isFalse();
    assertThat(s.totals().get("lost_receipts")).isPositive();
  }
}
