package dev.ratchet.adapters;

import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.StoreOptions;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.RuntimeFixture;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** The same crash matrix with the runtime's checkpoints on a real SQLite store file per cell. */
class WorkspaceSqliteRuntimeTest extends WorkspaceRuntimeTest {
  @TempDir Path stores;
  private final List<JdbcStore> opened = new ArrayList<>();

  @Override
  protected RuntimeFixture fixture(long cell) {
    ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
    JdbcStore store =
        JdbcStore.open(
            Database.sqlite(stores.resolve("cell-" + cell + ".db")),
            StoreOptions.defaults(clock).withOpenMode(OpenMode.CREATE));
    opened.add(store);
    return new RuntimeFixture(cell, clock, store, store);
  }

  @AfterEach
  void closeStores() {
    opened.forEach(JdbcStore::close);
    opened.clear();
  }
}
