package dev.ratchet.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tamper campaign in smoke mode, run by {@code mvn verify}; and its canary. */
class TamperSmokeTest {
  @TempDir Path results;

  @Test
  void everyMutationOfStoredCheckpointsAndRecordsIsRefusedWithCheckpoint() {
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    Campaign.Summary s =
        Campaign.run(
            Campaign.Args.parse(
                new String[] {
                  "tamper",
                  "--seed-from",
                  "0",
                  "--trials",
                  "4",
                  "--smoke",
                  "--results",
                  results.toString()
                }),
            new PrintStream(log, true, StandardCharsets.UTF_8));
    String out = log.toString(StandardCharsets.UTF_8);
    System.out.print(out);
    assertThat(s.passed()).as(out).isTrue();
    long mutations = s.totals().get("mutations");
    assertThat(mutations).isEqualTo(4L * TamperCampaign.mutationsPerTrial(Mode.SMOKE, false));
    assertThat(s.totals().get("refused")).isEqualTo(mutations);
    assertThat(s.totals()).doesNotContainKeys("accepted", "unexpected", "acting_used_tampered");
    // The acting path (D20): every mutation was also tried against resume plus the next steps,
    // and each was refused (with CHECKPOINT, or with another code and without any effect) or left
    // outputs and effects equal to the control's.
    assertThat(s.totals().get("acting_attempts")).isEqualTo(mutations);
    assertThat(
            s.totals().get("acting_refused")
                + s.totals().getOrDefault("acting_refused_other", 0L)
                + s.totals().getOrDefault("acting_unchanged", 0L))
        .isEqualTo(mutations);
    assertThat(s.totals().get("acting_refused")).isPositive();
    // Every kind of the catalogue was applied at least once.
    for (Mutations.Kind k : Mutations.Kind.values()) {
      assertThat(s.totals()).containsKey("kind." + k.name().toLowerCase(java.util.Locale.ROOT));
    }
  }

  @Test
  void theCanaryWithoutTheSetAuditAcceptsEditsAndFails() {
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    Campaign.Summary s =
        Campaign.run(
            Campaign.Args.parse(
                new String[] {
                  "tamper",
                  "--seed-from",
                  "7",
                  "--trials",
                  "1",
                  "--smoke",
                  "--canary",
                  "--results",
                  results.toString()
                }),
            new PrintStream(log, true, StandardCharsets.UTF_8));
    String out = log.toString(StandardCharsets.UTF_8);
    assertThat(s.passed()).isFalse();
    assertThat(s.totals().get("accepted")).isPositive();
    assertThat(out).contains("reproduce: mvn -B -Pchaos").contains("--seed-from 7 --trials 1");
  }
}
