package dev.ratchet.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/state-machine.md is generated from the phase table and the pending-write lifecycle table and
 * must stay equal to them.
 */
class StateMachineDocTest {
  @Test
  void theStateMachineDocMatchesTheTable() throws Exception {
    Path doc = Path.of("..", "docs", "state-machine.md");
    String expected = PhaseTransitions.markdown() + WriteLifecycle.markdown();
    if (Boolean.getBoolean("ratchet.regenerate")) {
      Files.writeString(doc, expected);
    }
    assertThat(Files.readString(doc))
        .as(
            "regenerate with: mvn -pl ratchet-core test -Dtest=StateMachineDocTest -Dratchet.regenerate=true")
        .isEqualTo(expected);
  }
}
