package dev.ratchet.jdbc;

import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.LeaseStore;
import dev.ratchet.testkit.CheckpointStoreContract;
import dev.ratchet.testkit.ManualClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The checkpoint-store contract on PostgreSQL through the group-commit writer: each request in its
 * own savepoint of one transaction, runs taken in (task, run) order.
 */
@RequiresPostgres
class PostgresGroupCommitCheckpointStoreTest extends CheckpointStoreContract {
  private static PgSchema schema;

  @BeforeAll
  static void createSchema() {
    schema = PgSchema.create().pinClock();
  }

  @AfterAll
  static void dropSchema() {
    if (schema != null) {
      schema.close();
    }
  }

  @Override
  protected CheckpointStore newStore(ManualClock clock) {
    schema.truncate();
    JdbcStore store = JdbcStore.open(schema.worker(), PgSchema.options().withGroupCommit(true));
    return schema.pinned(store, clock, true);
  }

  @Override
  protected LeaseStore leasesOf(CheckpointStore store) {
    return (PinnedStore) store;
  }

  @Override
  protected void makeUnavailable(CheckpointStore store) {
    store.close();
  }
}
