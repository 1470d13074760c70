package dev.ratchet.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Figure 7's second commit: chosen by {@code --beside}, named in the rows it produces. */
class PreviousCommitTest {
  @Test
  void besideNamesThePreviousBodyOrTheSlotsCandidate() {
    assertThat(PreviousCommit.named("previous")).isEqualTo(PreviousCommit.PREVIOUS);
    assertThat(PreviousCommit.named("slots")).isEqualTo(PreviousCommit.SLOTS);
  }

  @Test
  void anUnknownChoiceIsRefusedNamingTheOption() {
    assertThatThrownBy(() -> PreviousCommit.named("ring"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--beside previous|slots, not ring");
  }

  @Test
  void theRowsSayWhichCommitStoodBeside() {
    assertThat(PreviousCommit.PREVIOUS.label()).isEqualTo("version 10's commit");
    assertThat(PreviousCommit.SLOTS.label()).isEqualTo("checkpoint slots' commit (ADR 0142)");
  }
}
