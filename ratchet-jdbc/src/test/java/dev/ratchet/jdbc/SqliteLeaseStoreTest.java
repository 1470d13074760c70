package dev.ratchet.jdbc;

import dev.ratchet.store.LeaseStore;
import dev.ratchet.testkit.LeaseStoreContract;
import dev.ratchet.testkit.ManualClock;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The lease-store contract on SQLite, expiry judged on the injected clock. */
class SqliteLeaseStoreTest extends LeaseStoreContract {
  @TempDir Path dir;

  @Override
  protected LeaseStore newLeaseStore(ManualClock clock) {
    return TestStores.single(dir, TestStores.options(clock));
  }
}
