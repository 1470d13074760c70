package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.SecretKey;
import org.junit.jupiter.api.Test;

/**
 * ADR 0121 (issue 43): an asynchronous standby promoted before it received a run's first generation
 * has never heard of the run, so a worker starts it again. Its key salt is the MAC of the run's
 * identity under the checkpoint key, not fresh randomness, so the second life mints the keys of the
 * first and the adapter's lookup by key finds the effects the first life caused.
 */
class LostStartKeysTest {
  private final RuntimeFixture f = RuntimeFixture.inMemory(43);
  private final TaskSpec task = f.task();

  private String firstKey(Ratchet ratchet, String runId) {
    Run run = ratchet.start(task, runId, f.workspace());
    run.propose(run.action("w1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    return run.state().pending().action().idempotencyKey();
  }

  /** The same runtime key, another store (the promoted standby) and other randomness. */
  private Ratchet elsewhere(KeyRing keys, long entropySeed) {
    InMemoryStore lost = new InMemoryStore(f.clock);
    return Ratchet.builder()
        .store(lost)
        .leases(lost)
        .checkpointKeys(keys)
        .approvers(f.approvers)
        .reviewers(f.reviewers)
        .operators(f.operators)
        .clock(f.clock)
        .entropy(new SeededEntropy(entropySeed))
        .workerId("w2")
        .leaseTtl(RuntimeFixture.LEASE_TTL)
        .build();
  }

  @Test
  void aRunStartedAgainOnAStoreThatNeverSawItMintsTheKeysOfItsFirstLife() {
    String first = firstKey(f.ratchet("w1"), "run-1");
    assertThat(firstKey(elsewhere(f.keyRing, 9_001), "run-1")).isEqualTo(first);
  }

  @Test
  void anotherRunOrAnotherRuntimeKeyMintsOtherKeys() {
    String first = firstKey(f.ratchet("w1"), "run-1");
    assertThat(firstKey(elsewhere(f.keyRing, 9_002), "run-2")).isNotEqualTo(first);
    KeyRing other =
        KeyRing.of(
            SecretKey.of(
                "ckpt-1", new SeededEntropy(7).bytes(32), dev.ratchet.error.ErrorCode.CHECKPOINT));
    assertThat(firstKey(elsewhere(other, 9_003), "run-1")).isNotEqualTo(first);
  }
}
