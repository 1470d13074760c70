package dev.ratchet.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Issue 16's verdicts: the goal and the floor are each met at their boundary, not below it; a row
 * with no target of its own claims no verdict.
 */
class RowTest {
  @Test
  void aValueAtOrAboveTheGoalMeetsTheGoal() {
    assertThat(Row.goalOrFloor(0.5, 0.5, 0.3)).isEqualTo("meets the goal");
    assertThat(Row.goalOrFloor(1.7, 1.0, 0.5)).isEqualTo("meets the goal");
  }

  @Test
  void aValueFromTheFloorUpToBelowTheGoalMeetsOnlyTheFloor() {
    assertThat(Row.goalOrFloor(0.3, 0.5, 0.3)).isEqualTo("meets the floor");
    assertThat(Row.goalOrFloor(0.4999, 0.5, 0.3)).isEqualTo("meets the floor");
  }

  @Test
  void aValueBelowTheFloorDoesNotMeet() {
    assertThat(Row.goalOrFloor(0.2999, 0.5, 0.3)).isEqualTo("does not meet");
    assertThat(Row.goalOrFloor(Double.NaN, 0.5, 0.3)).isEqualTo("does not meet");
  }

  @Test
  void theTargetTextNamesGoalAndFloor() {
    assertThat(Row.goalAndFloor(1.0, 0.6)).isEqualTo("goal ≥ 1.0×, floor 0.6×");
  }

  @Test
  void anUntargetedRowIsMeasuredWithNeitherTargetNorVerdict() {
    Row r = Row.untargeted("4", "the rows alone", "10 steps/s", "20 commits/s", 0.5, "bound");
    assertThat(r.measured()).isTrue();
    assertThat(r.target()).isEqualTo("—");
    assertThat(r.verdict()).isEqualTo("—");
    assertThat(r.note()).isEmpty();
    assertThat(r.ratio()).isEqualTo(0.5);
    assertThat(r.boundBy()).isEqualTo("bound");
  }
}
