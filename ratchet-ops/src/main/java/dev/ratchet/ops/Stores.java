package dev.ratchet.ops;

import dev.ratchet.schedule.SchedulingStore;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.LeaseStore;
import java.util.Objects;
import java.util.Optional;

/** An opened store: its checkpoint and lease sides (usually one object) and how to close it. */
public record Stores(CheckpointStore checkpoints, LeaseStore leases, AutoCloseable closer)
    implements AutoCloseable {
  public Stores {
    Objects.requireNonNull(checkpoints, "checkpoints");
    Objects.requireNonNull(leases, "leases");
    Objects.requireNonNull(closer, "closer");
  }

  /**
   * The lease side's scheduling (D33), when it offers it: every durable store and the in-memory.
   */
  public Optional<SchedulingStore> scheduling() {
    return leases instanceof SchedulingStore s ? Optional.of(s) : Optional.empty();
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
