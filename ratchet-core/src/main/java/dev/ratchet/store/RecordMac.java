package dev.ratchet.store;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.sign.KeyRing;
import java.util.Optional;

/**
 * The per-record MAC of the growing sets (SPEC D20, docs/adr/0030-authenticated-reads.md). Every
 * record body carries {@code record_auth: {key_id, hmac_sha256}}: an HMAC, under a checkpoint key
 * of the ring, of a domain-separated canonical message binding the task, the run, the set, the
 * sequence, the lookup key and the SHA-256 of the body without {@code record_auth}. A record read
 * by key is authenticated by this MAC alone, in O(1): an edited, inserted, moved (other sequence,
 * set or run) or re-keyed record does not verify. Deletions are caught by the signed count and head
 * (the tip) or made harmless by bindings (the ADR).
 */
public final class RecordMac {
  /** The body field that carries the MAC. */
  public static final String FIELD = "record_auth";

  private static final String PURPOSE = "ratchet.record_mac.v1";

  private RecordMac() {}

  /** {@code body} with its MAC under the ring's active key, for position {@code sequence}. */
  public static JsonObject seal(
      KeyRing ring,
      String taskId,
      String runId,
      RecordSet set,
      long sequence,
      String key,
      JsonObject body) {
    JsonObject plain = body.without(FIELD);
    String bodySha256 = Canonical.sha256Hex(plain);
    return plain.with(FIELD, auth(ring, message(taskId, runId, set, sequence, key, bodySha256)));
  }

  /**
   * The canonical text of {@link #seal}'s result, with the body canonicalised once: its text is
   * digested for the MAC, then the MAC member is spliced into it (what the journal stores).
   */
  public static String sealText(
      KeyRing ring,
      String taskId,
      String runId,
      RecordSet set,
      long sequence,
      String key,
      JsonObject body) {
    Canonical.Opening plain = Canonical.opening(body.without(FIELD), FIELD);
    String bodySha256 = Canonical.sha256Hex(plain.text());
    return plain.with(auth(ring, message(taskId, runId, set, sequence, key, bodySha256)));
  }

  private static JsonObject auth(KeyRing ring, byte[] message) {
    KeyRing.Signature sig = ring.sign(message);
    return JsonObject.builder()
        .put("key_id", sig.keyId())
        .put("hmac_sha256", sig.hmacHex())
        .build();
  }

  /**
   * The authenticated body of a stored record, without its MAC. Throws {@code CHECKPOINT} when the
   * body is not a JSON object, carries no MAC, or its MAC does not verify under a trusted,
   * unrevoked key of the ring for this run, set, sequence and key.
   */
  public static JsonObject open(KeyRing ring, String taskId, String runId, StoredRecord r) {
    JsonObject body = parse(r);
    Optional<JsonValue> auth = body.get(FIELD);
    if (auth.isEmpty() || !(auth.get() instanceof JsonObject a)) {
      throw refuse(r, "carries no record MAC");
    }
    if (!(a.get("key_id").orElse(null) instanceof JsonString keyId)
        || !(a.get("hmac_sha256").orElse(null) instanceof JsonString hmac)
        || a.size() != 2) {
      throw refuse(r, "has a malformed record MAC");
    }
    JsonObject plain = body.without(FIELD);
    try {
      ring.verify(
          keyId.value(),
          message(taskId, runId, r.set(), r.sequence(), r.key(), Canonical.sha256Hex(plain)),
          hmac.value());
    } catch (RatchetException e) {
      throw refuse(r, "does not verify: " + e.getMessage());
    }
    return plain;
  }

  /** The body of a record without its MAC, for display after a full chain audit. */
  public static JsonObject strip(StoredRecord r) {
    return parse(r).without(FIELD);
  }

  private static JsonObject parse(StoredRecord r) {
    try {
      if (Json.parse(r.body()) instanceof JsonObject o) {
        return o;
      }
    } catch (RuntimeException e) {
      throw refuse(r, "is not JSON");
    }
    throw refuse(r, "is not a JSON object");
  }

  private static byte[] message(
      String taskId, String runId, RecordSet set, long sequence, String key, String bodySha256) {
    return Canonical.bytes(
        JsonObject.builder()
            .put("purpose", PURPOSE)
            .put("task_id", taskId)
            .put("run_id", runId)
            .put("set", set.wireName())
            .put("sequence", sequence)
            .put("key", key)
            .put("body_sha256", bodySha256)
            .build());
  }

  private static RatchetException refuse(StoredRecord r, String why) {
    return new RatchetException(
        ErrorCode.CHECKPOINT,
        "stored record " + r.set().wireName() + "#" + r.sequence() + " " + why);
  }
}
