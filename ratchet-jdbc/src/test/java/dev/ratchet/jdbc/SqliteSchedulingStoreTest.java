package dev.ratchet.jdbc;

import dev.ratchet.schedule.SchedulingStore;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.SchedulingStoreContract;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduling contract on a SQLite file: the claim in one write transaction of the single
 * writer, time on the injected clock; the process race's children open the same file, their clock
 * fixed where the test's stands.
 */
class SqliteSchedulingStoreTest extends SchedulingStoreContract {
  @TempDir Path dir;
  private Path file;

  @Override
  protected SchedulingStore newStore(ManualClock clock) {
    file = TestStores.file(dir, "scheduling");
    return JdbcStore.open(Database.sqlite(file), TestStores.options(clock));
  }

  @Override
  protected Optional<Process> startClaimerProcess(String owner) throws IOException {
    return Optional.of(
        ClaimerProcesses.start(
            dir.resolve(owner + ".log"),
            "sqlite",
            file.toString(),
            Long.toString(clock.millis()),
            owner));
  }
}
