package dev.ratchet.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The micro-benchmarks measure copies of the runtime's envelope steps (the codec is internal):
 * these copies produce exactly the bytes the runtime stores, accept them back, and the samples have
 * the size they are named for.
 */
class CheckpointsTest {
  @ParameterizedTest
  @ValueSource(ints = {4096, 16384, 262144})
  void theBenchmarkedEnvelopeIsTheOneTheRuntimeStores(int bytes) {
    Checkpoints.Sample s = Checkpoints.ofSize(bytes);

    assertThat(Checkpoints.encode(s.state(), s.generation(), s.ring())).isEqualTo(s.envelope());
    assertThat(Checkpoints.verify(s.envelope(), s.ring())).isEqualTo(s.state());
    assertThat(s.bytes()).isEqualTo(bytes);
  }

  @Test
  void theSmallestSampleIsARealCheckpointOfAboutOneKilobyte() {
    Checkpoints.Sample s = Checkpoints.ofSize(1024);

    assertThat(s.state().pending()).isNull();
    assertThat(s.bytes()).isBetween(1024, 2048);
    assertThat(Checkpoints.encode(s.state(), s.generation(), s.ring())).isEqualTo(s.envelope());
  }

  @ParameterizedTest
  @ValueSource(ints = {1024, 16384})
  void theBeforeAndAfterOfTheSingleCanonicalisationProduceTheSameEnvelope(int bytes) {
    dev.ratchet.bench.micro.CheckpointBench b = new dev.ratchet.bench.micro.CheckpointBench();
    b.bytes = bytes;
    b.setUp();

    assertThat(b.encodeAndSignThreeCanonicalisations()).isEqualTo(b.encodeAndSign());
    assertThat(b.encodeAndSign()).isEqualTo(Checkpoints.ofSize(bytes).envelope());
  }
}
