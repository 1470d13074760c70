package dev.ratchet.jdbc;

import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.LeaseStore;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** {@link AuthenticatedReadsContract} on a real SQLite store file. */
class SqliteAuthenticatedReadsTest extends AuthenticatedReadsContract {
  @TempDir Path dir;
  private Path file;
  private JdbcStore store;

  @BeforeEach
  void open() {
    file = TestStores.file(dir, "store");
    store = JdbcStore.open(Database.sqlite(file), TestStores.options(clock));
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Override
  protected CheckpointStore store() {
    return store;
  }

  @Override
  protected LeaseStore leases() {
    return store;
  }

  @Override
  protected void sql(String... statements) {
    String[] s = new String[statements.length];
    for (int i = 0; i < s.length; i++) {
      s[i] = statements[i].replace("{records}", "ratchet_records");
    }
    Sql.exec(file, s);
  }
}
