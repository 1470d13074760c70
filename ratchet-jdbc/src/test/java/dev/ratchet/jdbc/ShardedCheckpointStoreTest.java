package dev.ratchet.jdbc;

import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.LeaseStore;
import dev.ratchet.testkit.CheckpointStoreContract;
import dev.ratchet.testkit.ManualClock;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The checkpoint-store contract on a store spread over two databases (issue 44). */
class ShardedCheckpointStoreTest extends CheckpointStoreContract {
  @TempDir Path dir;

  @Override
  protected CheckpointStore newStore(ManualClock clock) {
    return ShardedStores.two(dir, TestStores.options(clock));
  }

  @Override
  protected LeaseStore leasesOf(CheckpointStore store) {
    return (ShardedStore) store;
  }

  @Override
  protected void makeUnavailable(CheckpointStore store) {
    store.close();
  }
}
