package dev.ratchet.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.testkit.InMemoryWorkspace;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The tamper campaign's judge of an acting path that refused with another code than CHECKPOINT. */
class ActingPathTest {
  private final InMemoryWorkspace before =
      new InMemoryWorkspace(
          "ws", InstantSource.fixed(Instant.EPOCH), Map.of("log.txt", "line 0", "app.py", "x"));

  /** What an attempt reports: its outcomes, then the external state it left. */
  private static List<String> attempt(List<String> outcomes, List<String> external) {
    List<String> all = new ArrayList<>(outcomes);
    all.addAll(external);
    return all;
  }

  private final List<String> controlAfter =
      List.of("files {app.py=x, log.txt=line 0line 1}", "ledger [k1]");
  private final List<String> control =
      attempt(
          List.of("recovery intent_without_effect executed_once", "phase RUNNING"), controlAfter);

  @Test
  void aRefusalThatLeftTheControlsEffectsIsWithoutEffect() {
    List<String> got = attempt(List.of("recovery ok", "refused with CONTRACT"), controlAfter);

    assertThat(ActingPath.refusedWithoutEffect(got, control, before)).isTrue();
  }

  @Test
  void aRefusalBeforeAnyEffectLeavesTheStateAsItWasAndIsWithoutEffect() {
    List<String> got = attempt(List.of("refused with CONTRACT"), ActingPath.external(before));

    assertThat(ActingPath.external(before))
        .containsExactly("files {app.py=x, log.txt=line 0}", "ledger []");
    assertThat(ActingPath.refusedWithoutEffect(got, control, before)).isTrue();
  }

  @Test
  void aRefusalAfterAnEffectTheControlDidNotMakeActedOnTheTamperedRecord() {
    List<String> got =
        attempt(
            List.of("refused with CONTRACT"),
            List.of("files {app.py=x, log.txt=line 0line 9}", "ledger [k9]"));

    assertThat(ActingPath.refusedWithoutEffect(got, control, before)).isFalse();
  }

  @Test
  void anAttemptThatWasNotRefusedIsNeverCountedAsARefusal() {
    List<String> got =
        attempt(List.of("recovery ok", "phase RUNNING"), ActingPath.external(before));

    assertThat(ActingPath.refusedWithoutEffect(got, control, before)).isFalse();
  }
}
