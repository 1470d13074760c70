package dev.ratchet.jdbc;

import dev.ratchet.schedule.SchedulingStore;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.SchedulingStoreContract;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduling contract on PostgreSQL through the schema's functions ({@code ratchet_claim} with
 * {@code SKIP LOCKED}, {@code ratchet_park}, {@code ratchet_finish}, {@code ratchet_submit}), with
 * the D21 roles: the worker claims, parks and finishes, the operator schedules, submits and
 * delivers. The database clock is pinned to the contract's manual clock ({@link PgSchema}); the
 * process race's children connect as the worker role and read the same pinned clock. Required
 * (fails, not skips) when {@code CI=true} and the server is unreachable.
 */
@RequiresPostgres
class PostgresSchedulingStoreTest extends SchedulingStoreContract {
  @RegisterExtension static final PgSchemaExtension SCHEMA = PgSchemaExtension.pinnedClock();

  @TempDir Path dir;

  @Override
  protected SchedulingStore newStore(ManualClock clock) {
    SCHEMA.get().truncate();
    return SCHEMA.get().pinned(SCHEMA.get().openWorker(), clock, true);
  }

  @Override
  protected Optional<Process> startClaimerProcess(String owner) throws IOException {
    return Optional.of(
        ClaimerProcesses.start(
            dir.resolve(owner + ".log"),
            "postgres",
            Postgres.URL,
            Postgres.WORKER,
            SCHEMA.get().name,
            owner));
  }
}
