package dev.ratchet.jdbc;

import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.LeaseStore;
import dev.ratchet.testkit.CheckpointStoreContract;
import dev.ratchet.testkit.ManualClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The checkpoint-store contract on PostgreSQL, connected as the worker role; the database clock is
 * pinned to the contract's manual clock ({@link PgSchema}).
 */
@RequiresPostgres
class PostgresCheckpointStoreTest extends CheckpointStoreContract {
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
    return schema.pinned(schema.openWorker(), clock, true);
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
