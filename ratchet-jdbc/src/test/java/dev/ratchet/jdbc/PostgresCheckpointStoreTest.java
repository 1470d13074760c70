package dev.ratchet.jdbc;

import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.LeaseStore;
import dev.ratchet.testkit.CheckpointStoreContract;
import dev.ratchet.testkit.ManualClock;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The checkpoint-store contract on PostgreSQL, connected as the worker role; the database clock is
 * pinned to the contract's manual clock ({@link PgSchema}).
 */
@RequiresPostgres
class PostgresCheckpointStoreTest extends CheckpointStoreContract {
  @RegisterExtension static final PgSchemaExtension SCHEMA = PgSchemaExtension.pinnedClock();

  @Override
  protected CheckpointStore newStore(ManualClock clock) {
    SCHEMA.get().truncate();
    return SCHEMA.get().pinned(SCHEMA.get().openWorker(), clock, true);
  }

  @Override
  protected LeaseStore leasesOf(CheckpointStore store) {
    return (PinnedStore) store;
  }

  @Override
  protected void makeUnavailable(CheckpointStore store) {
    store.close();
  }

  /** Schema 19's one-call commit leaves record links to the readers (D34, ADR 0045). */
  @Override
  protected boolean refusesRecordsOffTheirChain() {
    return false;
  }
}
