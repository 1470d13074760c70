package dev.ratchet.testkit;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.sign.Hmac;
import dev.ratchet.sign.SecretKey;
import java.util.function.UnaryOperator;

/**
 * Builds the forgeries integrity tests and the tamper campaign feed to recovery: a checkpoint
 * envelope (SPEC D5) with its payload edited, its checksum recomputed and its HMAC made with a
 * chosen key, so that only the checks after the signature can catch it.
 */
public final class CheckpointForgery {
  private CheckpointForgery() {}

  /** Edits the payload of {@code checkpoint} and re-signs the envelope with {@code key}. */
  public static String resign(String checkpoint, SecretKey key, UnaryOperator<JsonObject> edit) {
    JsonObject env = (JsonObject) Json.parse(checkpoint);
    JsonObject payload = edit.apply((JsonObject) env.get("payload").orElseThrow());
    return Canonical.string(sign(withPayload(env, payload), key));
  }

  /** The envelope with {@code payload} and its recomputed checksum; the HMAC is left stale. */
  public static JsonObject withPayload(JsonObject env, JsonObject payload) {
    return env.with("payload", payload)
        .with("checksum", new JsonString(Canonical.sha256Hex(payload)));
  }

  /** The envelope signed by {@code key}: its key id and the HMAC over everything but the HMAC. */
  public static JsonObject sign(JsonObject env, SecretKey key) {
    JsonObject unsigned = env.without("hmac").with("key_id", new JsonString(key.id()));
    return unsigned.with("hmac", new JsonString(Hmac.hmacHex(key, Canonical.bytes(unsigned))));
  }
}
