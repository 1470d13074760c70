package dev.ratchet.jdbc;

import dev.ratchet.store.LeaseStore;
import dev.ratchet.testkit.LeaseStoreContract;
import dev.ratchet.testkit.ManualClock;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The lease-store contract on PostgreSQL: every grant, renewal and release goes through the
 * schema's functions, judged on the database clock, which is pinned to the contract's manual clock
 * ({@link PgSchema}); {@code PostgresClockTest} covers the real clock.
 */
@RequiresPostgres
class PostgresLeaseStoreTest extends LeaseStoreContract {
  @RegisterExtension static final PgSchemaExtension SCHEMA = PgSchemaExtension.pinnedClock();

  @Override
  protected LeaseStore newLeaseStore(ManualClock clock) {
    SCHEMA.get().truncate();
    return SCHEMA.get().pinned(SCHEMA.get().openWorker(), clock, true);
  }
}
