package dev.ratchet.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Figure 7 judges write steps against issue 38's targets, which differ for one and eight runs. */
class WriteStepTargetTest {
  @Test
  void oneRunIsJudgedAgainstGoalOneAndFloorPointSeven() {
    WriteStepTarget one = WriteStepTarget.forRuns(1);
    assertThat(one.text()).isEqualTo("goal ≥ 1.0×, floor 0.7×");
    assertThat(one.verdict(0.69)).isEqualTo("does not meet");
    assertThat(one.verdict(0.73)).isEqualTo("meets the floor");
    assertThat(one.verdict(1.0)).isEqualTo("meets the goal");
  }

  @Test
  void eightRunsAreJudgedAgainstGoalOnePointTwoAndFloorPointEight() {
    WriteStepTarget eight = WriteStepTarget.forRuns(8);
    assertThat(eight.text()).isEqualTo("goal ≥ 1.2×, floor 0.8×");
    assertThat(eight.verdict(0.66)).isEqualTo("does not meet");
    assertThat(eight.verdict(1.1)).isEqualTo("meets the floor");
    assertThat(eight.verdict(1.2)).isEqualTo("meets the goal");
  }
}
