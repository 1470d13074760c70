package dev.ratchet.jdbc;

import java.util.Objects;

/**
 * A checkpoint the store still holds for a run: the current one or one of the {@link
 * StoreOptions#retainOlder()} older ones kept for inspection.
 *
 * @param digest the SHA-256 (hex) of {@code checkpoint}, as recorded when it was committed
 */
public record RetainedCheckpoint(long generation, String digest, String checkpoint) {
  public RetainedCheckpoint {
    Objects.requireNonNull(digest, "digest");
    Objects.requireNonNull(checkpoint, "checkpoint");
  }
}
