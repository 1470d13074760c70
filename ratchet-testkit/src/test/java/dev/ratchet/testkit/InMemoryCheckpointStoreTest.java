package dev.ratchet.testkit;

import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.LeaseStore;

/** The checkpoint-store contract on the reference in-memory store. */
class InMemoryCheckpointStoreTest extends CheckpointStoreContract {
  @Override
  protected CheckpointStore newStore(ManualClock clock) {
    return new InMemoryStore(clock);
  }

  @Override
  protected LeaseStore leasesOf(CheckpointStore store) {
    return (InMemoryStore) store;
  }

  @Override
  protected void makeUnavailable(CheckpointStore store) {
    ((InMemoryStore) store).setAvailable(false);
  }
}
