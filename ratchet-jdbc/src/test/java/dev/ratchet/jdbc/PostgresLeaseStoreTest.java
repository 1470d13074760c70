package dev.ratchet.jdbc;

import dev.ratchet.store.LeaseStore;
import dev.ratchet.testkit.LeaseStoreContract;
import dev.ratchet.testkit.ManualClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The lease-store contract on PostgreSQL: every grant, renewal and release goes through the
 * schema's functions, judged on the database clock, which is pinned to the contract's manual clock
 * ({@link PgSchema}); {@code PostgresClockTest} covers the real clock.
 */
@RequiresPostgres
class PostgresLeaseStoreTest extends LeaseStoreContract {
  private static PgSchema schema;

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
  protected LeaseStore newLeaseStore(ManualClock clock) {
    schema.truncate();
    return schema.pinned(schema.openWorker(), clock, true);
  }
}
