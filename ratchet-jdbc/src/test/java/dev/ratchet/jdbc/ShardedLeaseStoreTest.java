package dev.ratchet.jdbc;

import dev.ratchet.store.LeaseStore;
import dev.ratchet.testkit.LeaseStoreContract;
import dev.ratchet.testkit.ManualClock;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The lease-store contract on a store spread over two databases (issue 44). */
class ShardedLeaseStoreTest extends LeaseStoreContract {
  @TempDir Path dir;

  @Override
  protected LeaseStore newLeaseStore(ManualClock clock) {
    return ShardedStores.two(dir, TestStores.options(clock));
  }
}
