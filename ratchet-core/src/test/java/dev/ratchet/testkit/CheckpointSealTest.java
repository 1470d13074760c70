package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.Checkpoint;
import dev.ratchet.model.RunState;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.sign.KeyRing;
import org.junit.jupiter.api.Test;

/**
 * {@link Checkpoint#seal} canonicalises the payload once and splices it into the envelope: the text
 * must stay byte for byte the canonical JSON of the envelope object (SPEC D5, D16), HMAC over the
 * envelope without {@code hmac}.
 */
class CheckpointSealTest {

  /** The envelope as the objects define it: what seal's splicing must equal. */
  private static String reference(RunState state, long generation, KeyRing ring) {
    JsonObject payload = state.toJson();
    JsonObject unsigned =
        JsonObject.builder()
            .put("schema_version", RunState.SCHEMA_VERSION)
            .put("key_id", ring.activeKeyId())
            .put("generation", generation)
            .put("payload", payload)
            .put("checksum", Canonical.sha256Hex(payload))
            .build();
    KeyRing.Signature sig = ring.sign(Canonical.bytes(unsigned));
    return Canonical.string(unsigned.with("hmac", new JsonString(sig.hmacHex())));
  }

  @Test
  void theSplicedEnvelopeIsTheCanonicalFormOfTheEnvelopeObject() {
    RuntimeFixture f = RuntimeFixture.inMemory(91);
    TaskSpec task = f.task("write_file");
    try (Run run = f.ratchet("w1").start(task, "run-1", f.workspace())) {
      assertThat(Checkpoint.seal(run.state(), 2, f.keyRing).text())
          .isEqualTo(reference(run.state(), 2, f.keyRing));
      // A pending intent with escapes, non-ASCII and a surrogate pair in its content.
      run.propose(run.action("a1", "write_file", write("app.py", "print(\"é\\t😀\")\n\u0001")));
      RunState pending = run.state();
      assertThat(pending.pending()).isNotNull();
      for (long g : new long[] {1, 9_007_199_254_740_991L}) {
        String sealed = Checkpoint.seal(pending, g, f.keyRing).text();
        assertThat(sealed).isEqualTo(reference(pending, g, f.keyRing));
        assertThat(Checkpoint.open(new dev.ratchet.store.CheckpointEnvelope(sealed), f.keyRing))
            .isEqualTo(new Checkpoint(g, f.keyRing.activeKeyId(), pending));
      }
    }
  }
}
