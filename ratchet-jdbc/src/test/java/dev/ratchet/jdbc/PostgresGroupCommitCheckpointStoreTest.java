package dev.ratchet.jdbc;

import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.LeaseStore;
import dev.ratchet.testkit.CheckpointStoreContract;
import dev.ratchet.testkit.ManualClock;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The checkpoint-store contract on PostgreSQL through the group-commit writer: each request in its
 * own savepoint of one transaction, runs taken in (task, run) order.
 */
@RequiresPostgres
class PostgresGroupCommitCheckpointStoreTest extends CheckpointStoreContract {
  @RegisterExtension static final PgSchemaExtension SCHEMA = PgSchemaExtension.pinnedClock();

  @Override
  protected CheckpointStore newStore(ManualClock clock) {
    SCHEMA.get().truncate();
    JdbcStore store =
        JdbcStore.open(SCHEMA.get().worker(), PgSchema.options().withGroupCommit(true));
    return SCHEMA.get().pinned(store, clock, true);
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
