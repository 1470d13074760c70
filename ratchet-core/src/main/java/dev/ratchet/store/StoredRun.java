package dev.ratchet.store;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * What {@link CheckpointStore#load} reads in one consistent snapshot: the mark, the checkpoint the
 * mark points at, and the count and head of every growing set as stored.
 *
 * @param contentDigest the SHA-256 (hex) of the checkpoint text, as recorded in the mark
 */
public record StoredRun(
    RunScope scope,
    long generation,
    String contentDigest,
    String checkpoint,
    Map<RecordSet, SetHead> heads) {
  public StoredRun {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(contentDigest, "contentDigest");
    Objects.requireNonNull(checkpoint, "checkpoint");
    EnumMap<RecordSet, SetHead> copy = new EnumMap<>(RecordSet.class);
    for (RecordSet s : RecordSet.values()) {
      copy.put(s, heads.getOrDefault(s, SetHead.EMPTY));
    }
    heads = Map.copyOf(copy);
  }

  /** The checkpoint text as the envelope value type. */
  public CheckpointEnvelope envelope() {
    return new CheckpointEnvelope(checkpoint);
  }

  public SetHead head(RecordSet set) {
    return heads.get(set);
  }
}
