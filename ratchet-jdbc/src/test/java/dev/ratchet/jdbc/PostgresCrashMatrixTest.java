package dev.ratchet.jdbc;

import dev.ratchet.testkit.CrashMatrixContract;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.RuntimeFixture;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The runtime's crash matrix with PostgreSQL under it (worker role). One store serves every cell
 * (each cell has its own run); the schema's database clock follows each cell's manual clock.
 */
@RequiresPostgres
class PostgresCrashMatrixTest extends CrashMatrixContract {
  private static PgSchema schema;
  private static JdbcStore store;

  @BeforeAll
  static void open() {
    schema = PgSchema.create().pinClock();
    store = schema.openWorker();
  }

  @AfterAll
  static void close() {
    if (store != null) {
      store.close();
    }
    if (schema != null) {
      schema.close();
    }
  }

  @Override
  protected RuntimeFixture fixture(long seed) {
    ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
    PinnedStore pinned = schema.pinned(store, clock, false);
    return new RuntimeFixture(seed, clock, pinned, pinned);
  }
}
