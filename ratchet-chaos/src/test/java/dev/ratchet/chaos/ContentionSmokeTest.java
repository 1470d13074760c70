package dev.ratchet.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.testkit.ThrowawayPostgres;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contention campaign and its database-fault variant in smoke mode, run by {@code mvn verify}:
 * three worker JVMs racing for the runs of one PostgreSQL store with leases of 200–500 ms (two of
 * them SIGKILLed and replaced); and the same on a throwaway cluster stopped and restarted
 * mid-trial. Required when {@code CI=true} (the class fails if PostgreSQL or its server binaries
 * are missing); skipped with a printed reason elsewhere.
 */
class ContentionSmokeTest {
  @TempDir Path results;

  @BeforeAll
  static void needsPostgres() {
    String problem = PgServer.problem();
    if (problem != null) {
      String why = "PostgreSQL at " + PgServer.SHARED_URL + " is not reachable (" + problem + ")";
      if (PgServer.required()) {
        throw new IllegalStateException("CI=true requires " + why);
      }
      System.err.println("SKIPPED ContentionSmokeTest: " + why + "; set CI=true to require it");
      Assumptions.abort(why);
    }
  }

  private Campaign.Summary run(String... args) {
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    Campaign.Summary s =
        Campaign.run(Campaign.Args.parse(args), new PrintStream(log, true, StandardCharsets.UTF_8));
    System.out.print(log.toString(StandardCharsets.UTF_8));
    return s;
  }

  @Test
  void workersRacingOnPostgresWithShortLeasesApplyEachIntentExactlyOnce() {
    Campaign.Summary s =
        run(
            "contention",
            "--seed-from",
            "0",
            "--trials",
            "1",
            "--smoke",
            "--results",
            results.toString());
    assertThat(s.passed()).as(s.range().toString()).isTrue();
    assertThat(s.totals().get("runs")).isEqualTo(ContentionCampaign.runs(Mode.SMOKE, false));
    assertThat(s.totals().get("completed")).isEqualTo(s.totals().get("runs"));
    assertThat(s.totals().get("effects")).isEqualTo(3 * s.totals().get("runs"));
    assertThat(s.totals().get("receipts_reconciled")).isEqualTo(s.totals().get("effects"));
    assertThat(s.totals().get("retries.fenced")).isPositive();
    assertThat(s.totals().get("races")).isPositive().isEqualTo(s.totals().get("races_one_winner"));
    assertThat(s.totals())
        .doesNotContainKeys("duplicates", "lost_receipts", "lost_runs", "double_claims");
  }

  @Test
  void aRestartedDatabaseMidTrialLosesNothingAndDuplicatesNothing() {
    if (ThrowawayPostgres.binaries().isEmpty()) {
      String why = "no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql";
      if (PgServer.required()) {
        throw new IllegalStateException("CI=true requires " + why);
      }
      System.err.println("SKIPPED the database-fault smoke: " + why);
      Assumptions.abort(why);
    }
    Campaign.Summary s =
        run(
            "dbfault",
            "--seed-from",
            "0",
            "--trials",
            "1",
            "--smoke",
            "--results",
            results.toString());
    assertThat(s.passed()).as(s.range().toString()).isTrue();
    assertThat(s.totals().get("db_restarts")).isPositive();
    assertThat(s.totals().get("completed")).isEqualTo(s.totals().get("runs"));
    assertThat(s.totals()).doesNotContainKeys("duplicates", "lost_receipts", "lost_runs");
  }
}
