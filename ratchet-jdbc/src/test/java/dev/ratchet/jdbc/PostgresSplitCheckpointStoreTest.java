package dev.ratchet.jdbc;

import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.LeaseStore;
import dev.ratchet.testkit.CheckpointStoreContract;
import dev.ratchet.testkit.ManualClock;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkpoint-store contract with the mark in PostgreSQL (worker role, pinned database clock)
 * and the content in SQLite (SPEC D7).
 */
@RequiresPostgres
class PostgresSplitCheckpointStoreTest extends CheckpointStoreContract {
  @RegisterExtension static final PgSchemaExtension SCHEMA = PgSchemaExtension.pinnedClock();

  @TempDir Path dir;

  @Override
  protected CheckpointStore newStore(ManualClock clock) {
    SCHEMA.get().truncate();
    JdbcStore store =
        JdbcStore.split(
            SCHEMA.get().worker(),
            Database.sqlite(TestStores.file(dir, "content")),
            PgSchema.options().withOpenMode(OpenMode.CREATE));
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
}
