package dev.ratchet.jdbc;

import dev.ratchet.testkit.CrashMatrixContract;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.RuntimeFixture;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** The runtime's crash matrix with one SQLite database under it. */
class SqliteCrashMatrixTest extends CrashMatrixContract {
  @TempDir Path dir;
  private final List<JdbcStore> opened = new ArrayList<>();

  @Override
  protected RuntimeFixture fixture(long seed) {
    ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
    JdbcStore store = TestStores.single(dir, TestStores.options(clock));
    opened.add(store);
    return new RuntimeFixture(seed, clock, store, store);
  }

  @AfterEach
  void closeStores() {
    opened.forEach(JdbcStore::close);
  }
}
