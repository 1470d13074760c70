package dev.ratchet.testkit.foundation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.Checkpoint;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.sign.Hmac;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.SecretKey;
import dev.ratchet.store.CheckpointEnvelope;
import dev.ratchet.store.StoredRun;
import dev.ratchet.testkit.CrashPlan;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.Rules;
import dev.ratchet.testkit.RuntimeFixture;
import dev.ratchet.testkit.SeededEntropy;
import dev.ratchet.testkit.SimulatedCrash;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The checkpoint envelope (SPEC D5) refuses every single-byte mutation of a real signed checkpoint
 * with {@code CHECKPOINT} and nothing else, while the unmutated control decodes; a re-signature
 * under an untrusted key and an edit with a recomputed checksum are refused too.
 */
@Rules({"R1.16-envelope", "R3.2-corruption", "R3.2-hmac"})
class CheckpointMutationTest {
  /**
   * Replacement bytes tried at every position (skipped where equal to the original): negative
   * entries are XOR masks (lowest bit, ASCII case, high bit), the others literal bytes (a digit, a
   * quote, a backslash, a space, NUL, and 0xFF which is never valid UTF-8).
   */
  private static final int[] REPLACEMENTS = {-0x01, -0x20, -0x80, '0', '"', '\\', ' ', 0x00, 0xff};

  private final RuntimeFixture f = RuntimeFixture.inMemory(77);
  private TaskSpec task;
  private StoredRun stored;
  private String checkpoint;

  /**
   * A run that crashed right after committing a pending write's approval: the checkpoint holds the
   * pending intent with its complete approval evidence, a rich payload to mutate.
   */
  @BeforeEach
  void signARealCheckpoint() {
    task = f.task("write_file");
    InMemoryWorkspace ws = f.workspace();
    CrashPlan plan = new CrashPlan();
    Run run = f.ratchet("w1", plan).start(task, "run-1", ws);
    run.apply(run.action("a1", "read_file", JsonObject.builder().put("path", "app.py").build()));
    Proposal p =
        run.propose(
            run.action(
                "a2",
                "write_file",
                JsonObject.builder()
                    .put("path", "app.py")
                    .put("content", "print('ready')\n")
                    .build()));
    assertThat(p.kind()).isEqualTo(Proposal.Kind.PENDING);
    f.approvePending(run, task, Duration.ofHours(1));
    plan.arm(CrashPoint.AFTER_APPROVAL_COMMIT);
    assertThat(catchThrowable(() -> run.execute("a2"))).isInstanceOf(SimulatedCrash.class);
    stored = f.store.load(task.taskId(), "run-1").orElseThrow();
    checkpoint = stored.envelope().text();
  }

  private static void refusedAsCheckpoint(ThrowingCallable call, String... parts) {
    Throwable t = catchThrowable(call);
    assertThat(t).isInstanceOf(RatchetException.class);
    assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.CHECKPOINT);
    if (parts.length > 0) {
      assertThat(t.getMessage()).contains(parts);
    }
  }

  @Test
  void theUnmutatedControlDecodes() {
    Checkpoint d = Checkpoint.open(new CheckpointEnvelope(checkpoint), f.keyRing);
    assertThat(d.generation()).isEqualTo(stored.generation()).isGreaterThan(1);
    assertThat(d.keyId()).isEqualTo("ckpt-1");
    assertThat(d.state().pending()).isNotNull();
    assertThat(d.state().pending().approval()).isNotNull();
    assertThat(d.state().runId()).isEqualTo("run-1");
    // The stored text is the canonical envelope of exactly the D5 members.
    JsonObject env = (JsonObject) Json.parse(checkpoint);
    assertThat(Canonical.string(env)).isEqualTo(checkpoint);
    assertThat(env.members().keySet())
        .containsExactlyInAnyOrder(
            "schema_version", "key_id", "generation", "payload", "checksum", "hmac");
    assertThat(((JsonString) env.get("checksum").get()).value())
        .isEqualTo(Canonical.sha256Hex(env.get("payload").get()));
    // The HMAC covers the envelope without the hmac member, under the checkpoint key.
    assertThat(((JsonString) env.get("hmac").get()).value())
        .isEqualTo(Hmac.hmacHex(f.checkpointKey, Canonical.bytes(env.without("hmac"))));
  }

  @Test
  void everySingleByteMutationIsRefusedWithCheckpointOnly() {
    byte[] original = checkpoint.getBytes(StandardCharsets.UTF_8);
    int tried = 0;
    for (int pos = 0; pos < original.length; pos++) {
      for (int r : REPLACEMENTS) {
        byte b = r < 0 ? (byte) (original[pos] ^ -r) : (byte) r;
        if (b == original[pos]) {
          continue;
        }
        byte[] mutated = original.clone();
        mutated[pos] = b;
        String text = new String(mutated, StandardCharsets.UTF_8);
        tried++;
        try {
          Checkpoint d = Checkpoint.open(new CheckpointEnvelope(text), f.keyRing);
          fail(
              "accepted mutation at byte "
                  + pos
                  + " -> 0x"
                  + hex(b)
                  + ": generation "
                  + d.generation());
        } catch (RatchetException e) {
          if (e.code() != ErrorCode.CHECKPOINT) {
            fail("byte " + pos + " -> 0x" + hex(b) + " refused with " + e.code() + ": " + e, e);
          }
        } catch (Throwable t) {
          fail("byte " + pos + " -> 0x" + hex(b) + " raised " + t, t);
        }
      }
    }
    System.out.println(
        "[CheckpointMutationTest] "
            + tried
            + " mutations of a "
            + original.length
            + "-byte checkpoint");
    assertThat(tried).isGreaterThan(original.length * (REPLACEMENTS.length - 2));
  }

  private static String hex(byte b) {
    return HexFormat.of().toHexDigits(b);
  }

  @Test
  void truncationsAndAppendedBytesAreRefusedWithCheckpoint() {
    for (int len = 0; len < checkpoint.length(); len += 7) {
      String cut = checkpoint.substring(0, len);
      refusedAsCheckpoint(() -> Checkpoint.open(new CheckpointEnvelope(cut), f.keyRing));
    }
    refusedAsCheckpoint(
        () -> Checkpoint.open(new CheckpointEnvelope(checkpoint + "x"), f.keyRing),
        "trailing data");
    refusedAsCheckpoint(
        () -> Checkpoint.open(new CheckpointEnvelope(checkpoint + checkpoint), f.keyRing));
  }

  @Test
  void aCheckpointReSignedWithAnUntrustedKeyIsRefused() {
    JsonObject env = (JsonObject) Json.parse(checkpoint);
    JsonObject unsigned = env.without("hmac");
    // Same key id, other key material: the HMAC fails.
    SecretKey impostor = SecretKey.checkpoint("ckpt-1", new SeededEntropy(5).bytes(32));
    String forged =
        Canonical.string(
            env.with("hmac", new JsonString(Hmac.hmacHex(impostor, Canonical.bytes(unsigned)))));
    refusedAsCheckpoint(
        () -> Checkpoint.open(new CheckpointEnvelope(forged), f.keyRing),
        "HMAC does not verify under key id 'ckpt-1'");
    // Another key id, signed by its own key: not trusted by this ring.
    SecretKey stranger = SecretKey.checkpoint("ckpt-x", new SeededEntropy(6).bytes(32));
    String resigned =
        Checkpoint.seal(
                Checkpoint.open(new CheckpointEnvelope(checkpoint), f.keyRing).state(),
                stored.generation(),
                KeyRing.of(stranger))
            .text();
    assertThat(Checkpoint.open(new CheckpointEnvelope(resigned), KeyRing.of(stranger)).generation())
        .isEqualTo(stored.generation());
    refusedAsCheckpoint(
        () -> Checkpoint.open(new CheckpointEnvelope(resigned), f.keyRing),
        "key id 'ckpt-x' is not trusted");
    // A ring that trusts it only as a revoked key refuses it too.
    KeyRing revoked = KeyRing.of(stranger).rotate(f.checkpointKey).revoke("ckpt-x");
    refusedAsCheckpoint(
        () -> Checkpoint.open(new CheckpointEnvelope(resigned), revoked), "'ckpt-x' is revoked");
  }

  @Test
  void anEditWithARecomputedChecksumButTheOldHmacIsRefused() {
    JsonObject env = (JsonObject) Json.parse(checkpoint);
    JsonObject payload = (JsonObject) env.get("payload").get();
    long cursor = ((JsonInt) payload.get("cursor").get()).value();
    JsonObject edited = payload.with("cursor", new JsonInt(cursor + 1));
    // Checksum left alone: corruption.
    String corrupted = Canonical.string(env.with("payload", edited));
    refusedAsCheckpoint(
        () -> Checkpoint.open(new CheckpointEnvelope(corrupted), f.keyRing),
        "corrupted: checksum does not match payload");
    // Checksum recomputed, HMAC kept: the HMAC fails.
    String recomputed =
        Canonical.string(
            env.with("payload", edited)
                .with("checksum", new JsonString(Canonical.sha256Hex(edited))));
    refusedAsCheckpoint(
        () -> Checkpoint.open(new CheckpointEnvelope(recomputed), f.keyRing),
        "HMAC does not verify");
    // Envelope members outside the payload are authenticated too.
    String regenerated =
        Canonical.string(env.with("generation", new JsonInt(stored.generation() + 1)));
    refusedAsCheckpoint(
        () -> Checkpoint.open(new CheckpointEnvelope(regenerated), f.keyRing),
        "HMAC does not verify");
    String unknown = Canonical.string(env.with("note", new JsonString("x")));
    refusedAsCheckpoint(
        () -> Checkpoint.open(new CheckpointEnvelope(unknown), f.keyRing), "unknown fields [note]");
    // A version this code does not know is refused; a downgrade to version 1 (ADR 0031: a run
    // without a key salt) breaks the HMAC, which covers the version.
    String schema = Canonical.string(env.with("schema_version", new JsonInt(3)));
    refusedAsCheckpoint(
        () -> Checkpoint.open(new CheckpointEnvelope(schema), f.keyRing), "schema_version");
    String downgraded = Canonical.string(env.with("schema_version", new JsonInt(1)));
    refusedAsCheckpoint(
        () -> Checkpoint.open(new CheckpointEnvelope(downgraded), f.keyRing),
        "HMAC does not verify");
  }
}
