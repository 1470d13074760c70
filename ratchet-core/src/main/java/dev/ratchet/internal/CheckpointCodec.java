package dev.ratchet.internal;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Fields;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.model.RunState;
import dev.ratchet.sign.KeyRing;

/**
 * The checkpoint envelope (SPEC D5): {@code {schema_version, key_id, generation, payload, checksum,
 * hmac}}. The checksum is a plain SHA-256 of the canonical payload and only detects accidents; the
 * HMAC covers the canonical envelope without the {@code hmac} member, so the generation and key id
 * are authenticated too. Decoding checks, in order: shape, schema, key id trusted, checksum, HMAC,
 * payload — every failure is {@code CHECKPOINT}.
 */
public final class CheckpointCodec {
  static final String[] ENVELOPE_KEYS = {
    "schema_version", "key_id", "generation", "payload", "checksum", "hmac"
  };

  private CheckpointCodec() {}

  /** A decoded, authenticated checkpoint. */
  public record Decoded(long generation, String keyId, RunState state) {}

  public static String encode(RunState state, long generation, KeyRing ring) {
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
    return Canonical.string(unsigned.with("hmac", new dev.ratchet.json.JsonString(sig.hmacHex())));
  }

  public static Decoded decode(String text, KeyRing ring) {
    try {
      return decodeStrict(text, ring);
    } catch (RatchetException e) {
      if (e.code() == ErrorCode.CHECKPOINT) {
        throw e;
      }
      throw new RatchetException(ErrorCode.CHECKPOINT, "checkpoint: " + e.getMessage(), e);
    }
  }

  private static Decoded decodeStrict(String text, KeyRing ring) {
    JsonValue parsed = Json.parse(text);
    Fields env = Fields.exact(parsed, "checkpoint", ENVELOPE_KEYS);
    env.integer("schema_version", RunState.SCHEMA_VERSION, RunState.SCHEMA_VERSION);
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
    return new Decoded(generation, keyId, RunState.fromJson(payload, "checkpoint.payload"));
  }
}
