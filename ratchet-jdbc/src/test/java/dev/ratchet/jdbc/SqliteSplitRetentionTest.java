package dev.ratchet.jdbc;

import dev.ratchet.testkit.ManualClock;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The retention contract with marks and content in two SQLite databases. */
class SqliteSplitRetentionTest extends RetentionContract {
  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
  private Path marks;
  private Path content;

  @BeforeEach
  void files() {
    marks = TestStores.file(dir, "marks");
    content = TestStores.file(dir, "content");
  }

  @Override
  protected StoreOptions options() {
    return TestStores.options(clock);
  }

  @Override
  protected JdbcStore open(StoreOptions options) {
    return JdbcStore.split(Database.sqlite(marks), Database.sqlite(content), options);
  }

  @Override
  protected long rows(String table, String runId) {
    return Sql.count("ratchet_checkpoints".equals(table) ? content : marks, table, runId);
  }
}
