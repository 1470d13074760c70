package dev.ratchet.model;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.store.CheckpointEnvelope;
import java.nio.charset.StandardCharsets;

/**
 * A decoded, authenticated checkpoint, and the two steps between it and its {@link
 * CheckpointEnvelope} (SPEC D5). The checksum is a plain SHA-256 of the canonical payload and only
 * detects accidents; the HMAC covers the canonical envelope without the {@code hmac} member, so the
 * generation and key id are authenticated too. Opening checks, in order: shape, schema, key id
 * trusted, checksum, HMAC, payload; every failure is {@code CHECKPOINT}. Versions 1 and 2 are read;
 * a state is written in the version its shape needs (ADR 0031), so a version-1 run stays one.
 */
public record Checkpoint(long generation, String keyId, RunState state) {

  /** Signs {@code state} at {@code generation} under the ring's active key. */
  public static CheckpointEnvelope seal(RunState state, long generation, KeyRing ring) {
    // The payload is canonicalised once and spliced into both texts (HMAC input and stored
    // envelope); members in RFC 8785 order: checksum, generation, hmac, key_id, payload,
    // schema_version. CheckpointSealTest pins the result to the canonical form of the objects.
    String payload = Canonical.string(state.toJson());
    String head =
        "{\"checksum\":\"" + Canonical.sha256Hex(payload) + "\",\"generation\":" + generation;
    String tail =
        ",\"key_id\":"
            + Canonical.string(new JsonString(ring.activeKeyId()))
            + ",\"payload\":"
            + payload
            + ",\"schema_version\":"
            + state.schemaVersion()
            + "}";
    KeyRing.Signature sig = ring.sign((head + tail).getBytes(StandardCharsets.UTF_8));
    return new CheckpointEnvelope(head + ",\"hmac\":\"" + sig.hmacHex() + "\"" + tail);
  }

  /** Authenticates and decodes an envelope; every failure is {@code CHECKPOINT}. */
  public static Checkpoint open(CheckpointEnvelope envelope, KeyRing ring) {
    try {
      return openStrict(envelope, ring);
    } catch (RatchetException e) {
      if (e.code() == ErrorCode.CHECKPOINT) {
        throw e;
      }
      throw new RatchetException(ErrorCode.CHECKPOINT, "checkpoint: " + e.getMessage(), e);
    }
  }

  private static Checkpoint openStrict(CheckpointEnvelope envelope, KeyRing ring) {
    Fields env = envelope.fields();
    long version =
        env.integer("schema_version", RunState.OLDEST_SCHEMA_VERSION, RunState.SCHEMA_VERSION);
    String keyId = env.text("key_id");
    long generation = env.integer("generation", 1, JsonInt.MAX_SAFE);
    JsonObject payload = env.obj("payload");
    String checksum = env.hex64("checksum");
    String hmac = env.hex64("hmac");
    ring.requireTrusted(keyId);
    if (!Canonical.sha256Hex(payload).equals(checksum)) {
      throw RatchetException.checkpoint("checkpoint is corrupted: checksum does not match payload");
    }
    JsonObject unsigned = env.object().without("hmac");
    ring.verify(keyId, Canonical.bytes(unsigned), hmac);
    return new Checkpoint(
        generation, keyId, RunState.fromJson(payload, "checkpoint.payload", version));
  }
}
