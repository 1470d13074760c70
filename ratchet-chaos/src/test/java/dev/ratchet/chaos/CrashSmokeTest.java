package dev.ratchet.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash campaign in smoke mode, run by {@code mvn verify}: one batch of 250 trials on two
 * long-lived worker JVMs sharing SQLite stores, SIGKILLed in crash windows and at arbitrary
 * instants, racing and letting leases lapse; and its key-changing canary, which must fail.
 */
class CrashSmokeTest {
  /** One full batch: both worker slots, replacements, and the batch's own stores. */
  private static final int TRIALS = CrashCampaign.BATCH;

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
            Integer.toString(TRIALS),
            "--smoke",
            "--results",
            results.toString());
    assertThat(s.passed()).as(s.range().toString()).isTrue();
    Map<String, Long> t = s.totals();
    assertThat(t.get("runs")).isEqualTo((long) TRIALS);
    assertThat(t.get("completed")).isEqualTo((long) TRIALS);
    assertThat(t.getOrDefault("kills_seam", 0L) + t.getOrDefault("kills_sigkill", 0L))
        .isGreaterThanOrEqualTo(TRIALS / 6);
    assertThat(t.get("crashes_collateral")).isPositive();
    assertThat(t.keySet().stream().filter(k -> k.startsWith("seam.")).count())
        .isGreaterThanOrEqualTo(5);
    assertThat(t.get("races")).isPositive().isEqualTo(t.get("races_one_winner"));
    assertThat(t.get("stalls")).isPositive();
    assertThat(t.get("approval_gated")).isPositive();
    assertThat(t.get("receipts_issued"))
        .isEqualTo(t.get("receipts_reconciled"))
        .isEqualTo(3L * TRIALS);
    assertThat(t.get("effects")).isEqualTo(3L * TRIALS);
    assertThat(t)
        .doesNotContainKeys(
            "duplicates", "lost_receipts", "lost_runs", "double_claims", "generation_regressions");
  }

  @Test
  void theCanariesMakeTheEffectCountAndTheReceiptCheckFail() {
    Campaign.Summary s =
        run(
            "crash",
            "--seed-from",
            "0",
            "--trials",
            "6",
            "--smoke",
            "--canary",
            "--results",
            results.toString());
    assertThat(s.passed()).isFalse();
    assertThat(s.totals().get("kind.ledger")).isPositive();
    assertThat(s.totals().get("kind.workspace")).isPositive();
    assertThat(s.totals().get("duplicates")).isPositive();
    assertThat(s.totals().get("lost_receipts")).isPositive();
  }
}
