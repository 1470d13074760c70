package dev.ratchet.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The worker log lines the fleet supervisor depends on (ADR 0063), as WorkCommand prints them. */
class FleetParseTest {
  @Test
  void claimOutcomeReleaseAndRefusalLinesAreRecognisedAndOthersIgnored() {
    assertThat(Fleet.parse(1, "w1", "worker w1 claimed run r0001 (task t, driver plan, lease v2)"))
        .extracting(Fleet.Event::kind, Fleet.Event::runId)
        .containsExactly(Fleet.Kind.CLAIMED, "r0001");
    assertThat(Fleet.parse(1, "w1", "worker w1 run r0001: ended (completed)").kind())
        .isEqualTo(Fleet.Kind.ENDED);
    assertThat(Fleet.parse(1, "w1", "worker w1 run r0001: waiting (awaiting approval)").kind())
        .isEqualTo(Fleet.Kind.WAITING);
    assertThat(Fleet.parse(1, "w1", "worker w1 released run r0001").kind())
        .isEqualTo(Fleet.Kind.RELEASED);
    assertThat(Fleet.parse(1, "w1", "worker w1 run r0001: FENCED: commit fenced: …").kind())
        .isEqualTo(Fleet.Kind.FAILED);
    assertThat(Fleet.parse(1, "w1", "run r0001: step 1/3  read_file read#1: executed")).isNull();
  }
}
