package dev.ratchet.jdbc;

import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.LeaseStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/** {@link AuthenticatedReadsContract} on PostgreSQL (worker role; the attacker is the admin). */
@RequiresPostgres
class PostgresAuthenticatedReadsTest extends AuthenticatedReadsContract {
  private static PgSchema schema;
  private static JdbcStore jdbc;
  private PinnedStore store;

  @BeforeAll
  static void create() {
    schema = PgSchema.create().pinClock();
    jdbc = schema.openWorker();
  }

  @AfterAll
  static void drop() {
    if (jdbc != null) {
      jdbc.close();
    }
    if (schema != null) {
      schema.close();
    }
  }

  @BeforeEach
  void fresh() {
    schema.truncate();
    store = schema.pinned(jdbc, clock, false);
  }

  @Override
  protected CheckpointStore store() {
    return store;
  }

  @Override
  protected LeaseStore leases() {
    return store;
  }

  @Override
  protected void sql(String... statements) {
    String[] s = new String[statements.length];
    for (int i = 0; i < s.length; i++) {
      s[i] = statements[i].replace("{records}", schema.name + ".ratchet_records");
    }
    schema.exec(s);
  }
}
