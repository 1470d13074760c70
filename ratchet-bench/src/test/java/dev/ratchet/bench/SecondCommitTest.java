package dev.ratchet.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * Figure 7's second commit: chosen by {@code --beside}, named in its rows, spliced as ADR 0142
 * says.
 */
class SecondCommitTest {
  @Test
  void theSlotsCommitIsVersion19sWithRetentionsRowsReplacedByOneSlotUpsert() {
    String slots = SecondCommit.SLOTS.function();
    assertThat(slots)
        .startsWith("CREATE OR REPLACE FUNCTION ratchet_commit(")
        .endsWith("END $$")
        .contains("UPDATE ratchet_marks m SET generation = v_next")
        .contains("INSERT INTO ratchet_records")
        .contains("INSERT INTO ratchet_slots AS k")
        .doesNotContain("ratchet_generations")
        .doesNotContain("ratchet_checkpoints");
    assertThat(SecondCommit.PREVIOUS.function())
        .contains("INSERT INTO ratchet_generations")
        .contains("INSERT INTO ratchet_checkpoints")
        .doesNotContain("ratchet_slots");
  }

  @Test
  void besideNamesThePreviousBodyOrTheSlotsCandidate() {
    assertThat(SecondCommit.named("previous")).isEqualTo(SecondCommit.PREVIOUS);
    assertThat(SecondCommit.named("slots")).isEqualTo(SecondCommit.SLOTS);
  }

  @Test
  void anUnknownChoiceIsRefusedNamingTheOption() {
    assertThatThrownBy(() -> SecondCommit.named("ring"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--beside previous|slots, not ring");
  }

  @Test
  void theRowsSayWhichCommitStoodBeside() {
    assertThat(SecondCommit.PREVIOUS.label()).isEqualTo("version 10's commit");
    assertThat(SecondCommit.SLOTS.label()).isEqualTo("checkpoint slots' commit (ADR 0142)");
  }
}
