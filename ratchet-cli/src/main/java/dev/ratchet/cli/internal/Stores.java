package dev.ratchet.cli.internal;

import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.LeaseStore;
import java.util.Objects;

/** An opened store: its checkpoint and lease sides (usually one object) and how to close it. */
public record Stores(CheckpointStore checkpoints, LeaseStore leases, AutoCloseable closer)
    implements AutoCloseable {
  public Stores {
    Objects.requireNonNull(checkpoints, "checkpoints");
    Objects.requireNonNull(leases, "leases");
    Objects.requireNonNull(closer, "closer");
  }

  @Override
  public void close() {
    try {
      closer.close();
    } catch (Exception e) {
      // Closing a store never changes what was committed; a failure here is not the caller's.
    }
  }
}
