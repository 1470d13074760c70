package dev.ratchet.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import org.junit.jupiter.api.Test;

/** The compare-and-set verdict by row count: 0 lost, 1 won, anything else is a bug, thrown. */
class RowCountTest {
  @Test
  void zeroRowsLostTheRaceAndOneWonIt() {
    assertThat(RowCount.won(0, "park")).isFalse();
    assertThat(RowCount.won(1, "park")).isTrue();
  }

  @Test
  void moreThanOneRowIsABugAndNeverAWin() {
    RatchetException e =
        catchThrowableOfType(RatchetException.class, () -> RowCount.won(2, "schedule park"));
    assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL);
    assertThat(e).hasMessageContaining("schedule park changed 2 rows");
    assertThat(catchThrowableOfType(RatchetException.class, () -> RowCount.won(-1, "x")).code())
        .isEqualTo(ErrorCode.INTERNAL);
  }

  @Test
  void aChangeNoRaceCanLoseNeedsExactlyOneRow() {
    RowCount.requireOne(1, "claim");
    RatchetException none =
        catchThrowableOfType(RatchetException.class, () -> RowCount.requireOne(0, "claim"));
    assertThat(none.code()).isEqualTo(ErrorCode.INTERNAL);
  }
}
