package dev.ratchet.store;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * What {@link CheckpointStore#load} reads in one consistent snapshot: the mark, the checkpoint the
 * mark points at, and the count and head of every growing set as stored.
 *
 * @param contentDigest the SHA-256 (hex) of the checkpoint text, as recorded in the mark
 * @param envelope the signed checkpoint envelope the mark points at (its text is the stored bytes)
 */
public record StoredRun(
    RunScope scope,
    long generation,
    String contentDigest,
    CheckpointEnvelope envelope,
    Map<RecordSet, SetHead> heads) {
  public StoredRun {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(contentDigest, "contentDigest");
    Objects.requireNonNull(envelope, "envelope");
    EnumMap<RecordSet, SetHead> copy = new EnumMap<>(RecordSet.class);
    for (RecordSet s : RecordSet.values()) {
      copy.put(s, heads.getOrDefault(s, SetHead.EMPTY));
    }
    heads = Map.copyOf(copy);
  }

  public SetHead head(RecordSet set) {
    return heads.get(set);
  }
}
