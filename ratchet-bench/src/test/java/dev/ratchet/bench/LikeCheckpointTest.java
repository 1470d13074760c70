package dev.ratchet.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Figure 4's baselines write a real checkpoint's bytes, cut or repeated to the measured size. */
class LikeCheckpointTest {
  private static final String SAMPLE =
      "{\"hmac\":\"9f86d081884c7d65\",\"payload\":{\"phase\":\"x\"}}";

  @Test
  void aShorterSizeIsThePrefixOfTheSample() {
    assertThat(Postgres.likeCheckpoint(SAMPLE, 10)).isEqualTo(SAMPLE.substring(0, 10));
  }

  @Test
  void aLongerSizeRepeatsTheSampleToExactlyThatLength() {
    String body = Postgres.likeCheckpoint(SAMPLE, 2 * SAMPLE.length() + 7);
    assertThat(body).hasSize(2 * SAMPLE.length() + 7).startsWith(SAMPLE + SAMPLE);
    assertThat(body.substring(2 * SAMPLE.length())).isEqualTo(SAMPLE.substring(0, 7));
  }

  @Test
  void withoutASampleThereIsNoBaselineBody() {
    assertThatThrownBy(() -> Postgres.likeCheckpoint("", 100))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no checkpoint sample");
  }
}
