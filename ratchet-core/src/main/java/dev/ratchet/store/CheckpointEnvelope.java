package dev.ratchet.store;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Fields;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import java.util.Objects;
import java.util.Optional;

/**
 * The signed checkpoint envelope (SPEC D5) as the store keeps it: {@code {schema_version, key_id,
 * generation, payload, checksum, hmac}} in canonical JSON. The value is the stored text itself, so
 * the bytes a store writes and reads are exactly the runtime's (no migration); the accessors parse
 * the header strictly and refuse a malformed envelope with {@code CHECKPOINT}. Authenticating it
 * (checksum, HMAC, payload) is {@code dev.ratchet.model.Checkpoint#open}.
 *
 * @param text the canonical JSON text of the envelope, as committed
 */
public record CheckpointEnvelope(String text) {
  /** The envelope's members. */
  public static final java.util.List<String> MEMBERS =
      java.util.List.of("schema_version", "key_id", "generation", "payload", "checksum", "hmac");

  public CheckpointEnvelope {
    Objects.requireNonNull(text, "text");
  }

  /** The envelope's members after a strict parse (exactly {@link #MEMBERS}, no duplicates). */
  public Fields fields() {
    try {
      return Fields.exact(Json.parse(text), "checkpoint", MEMBERS.toArray(new String[0]));
    } catch (RatchetException e) {
      if (e.code() == ErrorCode.CHECKPOINT) {
        throw e;
      }
      throw new RatchetException(ErrorCode.CHECKPOINT, "checkpoint: " + e.getMessage(), e);
    }
  }

  /** The id of the key that signed the envelope (not yet authenticated). */
  public String keyId() {
    return field(() -> fields().text("key_id"));
  }

  /** The generation the envelope claims (not yet authenticated). */
  public long generation() {
    return field(() -> fields().integer("generation", 1, JsonInt.MAX_SAFE));
  }

  /** The signed payload (not yet authenticated). */
  public JsonObject payload() {
    return field(() -> fields().obj("payload"));
  }

  /**
   * The {@code key_id} member read leniently (any JSON object with a string {@code key_id}), or
   * empty when the text names none: for operator reports, which show damaged envelopes too.
   */
  public Optional<String> declaredKeyId() {
    try {
      return Fields.asObject(Json.parse(text), "checkpoint")
          .get("key_id")
          .filter(v -> v instanceof JsonString)
          .map(v -> ((JsonString) v).value());
    } catch (RatchetException e) {
      return Optional.empty();
    }
  }

  private static <T> T field(java.util.function.Supplier<T> read) {
    try {
      return read.get();
    } catch (RatchetException e) {
      if (e.code() == ErrorCode.CHECKPOINT) {
        throw e;
      }
      throw new RatchetException(ErrorCode.CHECKPOINT, "checkpoint: " + e.getMessage(), e);
    }
  }
}
