package dev.ratchet.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The supervisor's bookkeeping of one trial: claims of generations, regressions, races. */
class CrashTrialTest {
  private static CrashTrial trial(CrashPlan.Fault fault) {
    long seed =
        LongStream.range(0, 1_000)
            .filter(s -> CrashPlan.of(s, false).fault() == fault)
            .findFirst()
            .orElseThrow();
    CrashPlan plan = CrashPlan.of(seed, false);
    return new CrashTrial(
        plan, new RunVerdict.RunSpec("trial-" + seed, plan.kind(), "x"), Path.of("x"), null);
  }

  @Test
  void oneGenerationClaimedByTwoWorkersFailsTheRace() {
    CrashTrial t = trial(CrashPlan.Fault.RACE);
    t.step(0, 1, 3, true);
    t.step(1, 2, 4, false);
    t.step(1, 2, 3, false);
    t.judgeRace();
    TrialResult r = t.tally.result(t.seed());
    assertThat(r.passed()).isFalse();
    assertThat(r.counter("races")).isEqualTo(1);
    assertThat(r.counter("races_one_winner")).isZero();
    assertThat(r.failures()).anyMatch(f -> f.contains("generation 3 committed by two workers"));
  }

  @Test
  void aRaceWhoseCommitsAllHaveOneWinnerPasses() {
    CrashTrial t = trial(CrashPlan.Fault.RACE);
    t.step(0, 1, 1, true);
    t.step(1, 2, 2, false);
    t.step(0, 1, 3, true);
    t.checkGeneration(3, "at the end");
    t.judgeRace();
    TrialResult r = t.tally.result(t.seed());
    assertThat(r.passed()).isTrue();
    assertThat(r.counter("races_one_winner")).isEqualTo(1);
    assertThat(r.counter("races_both_committed")).isEqualTo(1);
  }

  @Test
  void aStoredGenerationBelowOneAlreadySeenIsARegression() {
    CrashTrial t = trial(CrashPlan.Fault.NONE);
    t.step(0, 1, 5, true);
    t.checkGeneration(4, "after a sigkill");
    TrialResult r = t.tally.result(t.seed());
    assertThat(r.counter("generation_regressions")).isEqualTo(1);
    assertThat(r.failures()).anyMatch(f -> f.contains("went back from 5 to 4"));
  }

  @Test
  void theInstantKillIsDueOnceAfterThePlannedNumberOfPrimarySteps() {
    CrashTrial t = trial(CrashPlan.Fault.SIGKILL);
    int due = 0;
    for (int g = 1; g <= 10; g++) {
      due += t.step(0, 1, g, true) ? 1 : 0;
    }
    assertThat(due).isEqualTo(1);
  }
}
