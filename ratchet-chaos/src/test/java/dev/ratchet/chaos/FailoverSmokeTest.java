package dev.ratchet.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The failover campaign in smoke mode (issue 43), run by {@code mvn verify}: a primary and a
 * streaming standby of their own, three worker JVMs on 12 ledger runs, the primary SIGKILLed and
 * the standby promoted twice per trial; synchronous and asynchronous replication, and the
 * asynchronous canary (keys minted fresh per attempt). Required when {@code CI=true} (fails without
 * the server binaries); skipped with a printed reason elsewhere.
 */
class FailoverSmokeTest {
  @TempDir Path results;

  @BeforeAll
  static void needsServerBinaries() {
    if (ReplicaPair.binaries().isEmpty()) {
      String why =
          "no PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup) under /usr/lib/postgresql";
      if (PgServer.required()) {
        throw new IllegalStateException("CI=true requires " + why);
      }
      System.err.println("SKIPPED FailoverSmokeTest: " + why + "; set CI=true to require it");
      Assumptions.abort(why);
    }
  }

  private Campaign.Summary run(String campaign, boolean canary) {
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    String[] args = {
      campaign, "--seed-from", "0", "--trials", "1", "--smoke", "--results", results.toString()
    };
    if (canary) {
      args = java.util.Arrays.copyOf(args, args.length + 1);
      args[args.length - 1] = "--canary";
    }
    Campaign.Summary s =
        Campaign.run(Campaign.Args.parse(args), new PrintStream(log, true, StandardCharsets.UTF_8));
    System.out.print(log.toString(StandardCharsets.UTF_8));
    return s;
  }

  @Test
  void synchronousFailoverLosesNoCommittedStepFreezesNothingAndDuplicatesNothing() {
    Campaign.Summary s = run("failover-sync", false);
    assertThat(s.passed()).as(s.range().toString()).isTrue();
    assertPromoted(s);
    assertThat(s.totals().get("kills_primary_sigkill")).isEqualTo(s.totals().get("promotions"));
    assertThat(s.totals().get("runs")).isEqualTo(FailoverCampaign.runs(Mode.SMOKE));
    assertThat(s.totals().get("completed")).isEqualTo(s.totals().get("runs"));
    assertThat(s.totals().get("effects")).isEqualTo(3 * s.totals().get("runs"));
    assertThat(s.totals().get("receipts_reconciled")).isEqualTo(s.totals().get("effects"));
    assertThat(s.totals().get("frozen_runs")).isZero();
    assertThat(s.totals())
        .doesNotContainKeys(
            "generations_lost", "duplicates", "lost_receipts", "lost_runs", "double_claims");
  }

  @Test
  void asynchronousFailoverDuplicatesNothingAndFreezesOnlyWhereALossCoveredAnEffect() {
    Campaign.Summary s = run("failover-async", false);
    assertThat(s.passed()).as(s.range().toString()).isTrue();
    assertPromoted(s);
    assertThat(s.totals().get("frozen_runs"))
        .isLessThanOrEqualTo(s.totals().get("losses_covering_effects"));
    assertThat(s.totals().getOrDefault("completed", 0L) + s.totals().get("frozen_runs"))
        .isEqualTo(s.totals().get("runs"));
    assertThat(s.totals())
        .doesNotContainKeys("duplicates", "lost_receipts", "lost_runs", "double_claims");
  }

  /**
   * At least one promotion, at most the smoke's plan: the campaign promotes only while runs are
   * unfinished, and a trial whose runs all ended or froze after the first promotion (faster commits
   * finish them sooner) has no window left for the second.
   */
  private static void assertPromoted(Campaign.Summary s) {
    assertThat(s.totals().get("promotions"))
        .isBetween(1L, (long) FailoverCampaign.promotions(Mode.SMOKE));
  }

  /**
   * The canary must fail in the ledger's own checks: receipts the service issued under keys no run
   * holds, and, where a second attempt reached the service, orders created twice. The runtime's
   * drift check freezes most runs a loss left behind before they try again, so how many orders go
   * twice depends on where the kills land; the count is printed, not asserted.
   */
  @Test
  void theCanaryWithKeysMintedPerAttemptIsCaughtByTheLedger() {
    Campaign.Summary s = run("failover-async", true);
    assertThat(s.passed()).isFalse();
    assertThat(s.totals().get("lost_receipts")).isPositive();
    System.out.println("canary: orders created twice " + s.totals().getOrDefault("duplicates", 0L));
  }
}
