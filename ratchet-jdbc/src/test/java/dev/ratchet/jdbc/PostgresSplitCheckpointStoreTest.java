package dev.ratchet.jdbc;

import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.LeaseStore;
import dev.ratchet.testkit.CheckpointStoreContract;
import dev.ratchet.testkit.ManualClock;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkpoint-store contract with the mark in PostgreSQL (worker role, pinned database clock)
 * and the content in SQLite (SPEC D7).
 */
@RequiresPostgres
class PostgresSplitCheckpointStoreTest extends CheckpointStoreContract {
  private static PgSchema schema;
  @TempDir Path dir;

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
    JdbcStore store =
        JdbcStore.split(
            schema.worker(),
            Database.sqlite(TestStores.file(dir, "content")),
            PgSchema.options().withOpenMode(OpenMode.CREATE));
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
