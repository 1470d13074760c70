package dev.ratchet.store;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;

/**
 * The hash chain over a growing set: {@code head(n) = sha256(canonical({set, sequence, key,
 * body_sha256, previous: head(n-1)}))}, starting from {@link SetHead#GENESIS}. Any edit, deletion,
 * reordering or truncation changes the head, which the checkpoint signs.
 */
public final class RecordChain {
  private RecordChain() {}

  public static String next(
      String previousHead, RecordSet set, long sequence, String key, String body) {
    JsonObject link =
        JsonObject.builder()
            .put("set", set.wireName())
            .put("sequence", sequence)
            .put("key", key)
            .put("body_sha256", Canonical.sha256Hex(body))
            .put("previous", previousHead)
            .build();
    return Canonical.sha256Hex(link);
  }

  /** Builds the stored form of the next element after {@code head}. */
  public static StoredRecord append(SetHead head, RecordSet set, String key, String body) {
    long sequence = head.count() + 1;
    return new StoredRecord(set, sequence, key, body, next(head.head(), set, sequence, key, body));
  }

  /** The head after {@code record}, given the head before it. */
  public static SetHead advance(SetHead head, StoredRecord record) {
    if (record.sequence() != head.count() + 1) {
      throw new IllegalArgumentException("record sequence is not contiguous");
    }
    return new SetHead(record.sequence(), record.chain());
  }
}
