package dev.ratchet.jdbc;

import dev.ratchet.testkit.ManualClock;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The retention contract on one SQLite database. */
class SqliteRetentionTest extends RetentionContract {
  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
  private Path file;

  @BeforeEach
  void file() {
    file = TestStores.file(dir, "store");
  }

  @Override
  protected StoreOptions options() {
    return TestStores.options(clock);
  }

  @Override
  protected JdbcStore open(StoreOptions options) {
    return JdbcStore.open(Database.sqlite(file), options);
  }

  @Override
  protected long rows(String table, String runId) {
    return Sql.count(file, table, runId);
  }
}
