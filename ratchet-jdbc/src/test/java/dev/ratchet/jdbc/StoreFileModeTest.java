package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.testkit.ManualClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 14: a new SQLite store and its -wal and -shm files are readable by their owner only. */
class StoreFileModeTest {
  @TempDir Path dir;

  @Test
  void aCreatedStoreAndItsWalAndShmFilesAreMode0600() throws Exception {
    Path file = dir.resolve("ratchet.db");
    StoreOptions create =
        StoreOptions.defaults(new ManualClock(Instant.parse("2026-07-18T09:00:00Z")))
            .withOpenMode(OpenMode.CREATE);
    try (JdbcStore store = JdbcStore.open(Database.sqlite(file), create)) {
      assertThat(store.runs()).isEmpty();
      Path wal = dir.resolve("ratchet.db-wal");
      Path shm = dir.resolve("ratchet.db-shm");
      assertThat(wal).exists();
      assertThat(shm).exists();
      for (Path p : new Path[] {file, wal, shm}) {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p)))
            .as(p.toString())
            .isEqualTo("rw-------");
      }
    }
  }
}
