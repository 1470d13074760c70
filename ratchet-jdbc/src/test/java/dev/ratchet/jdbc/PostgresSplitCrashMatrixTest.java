package dev.ratchet.jdbc;

import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.testkit.CrashMatrixContract;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.RuntimeFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The runtime's crash matrix with the mark in PostgreSQL (worker role) and the content in SQLite
 * (SPEC D7), including the split window between the content and the mark ({@link
 * CrashPoint#STORE_BETWEEN_CONTENT_AND_MARK}). One store serves every cell.
 */
@RequiresPostgres
class PostgresSplitCrashMatrixTest extends CrashMatrixContract {
  private static final AtomicReference<CrashSeam> SEAM = new AtomicReference<>(CrashSeam.NONE);
  private static PgSchema schema;
  private static Path dir;
  private static JdbcStore store;

  @BeforeAll
  static void open() throws Exception {
    schema = PgSchema.create().pinClock();
    dir = Files.createTempDirectory("ratchet-pg-split");
    store =
        JdbcStore.split(
            schema.worker(),
            Database.sqlite(dir.resolve("content.db")),
            PgSchema.options()
                .withOpenMode(OpenMode.CREATE)
                .withCrashSeam(p -> SEAM.get().reached(p)));
  }

  @AfterAll
  static void close() throws Exception {
    if (store != null) {
      store.close();
    }
    if (schema != null) {
      schema.close();
    }
    if (dir != null) {
      try (var files = Files.walk(dir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  @Override
  protected RuntimeFixture fixture(long seed) {
    ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
    PinnedStore pinned = schema.pinned(store, clock, false);
    return new RuntimeFixture(seed, clock, pinned, pinned).onStoreCrashSeam(SEAM::set);
  }

  @Override
  protected Set<CrashPoint> points() {
    return allButBatched();
  }
}
