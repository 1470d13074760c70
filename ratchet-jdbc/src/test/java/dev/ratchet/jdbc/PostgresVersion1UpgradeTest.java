package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.jdbc.internal.Dialect;
import dev.ratchet.testkit.ManualClock;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link SqliteVersion1UpgradeTest} on PostgreSQL: a schema holding only {@code
 * V1__tables_and_guarded_functions.sql} and a version-1 run ({@link Version1Store}), opened by the
 * owner with the current code (V2..V4 applied on open), granted, and resumed by the worker role.
 */
@RequiresPostgres
class PostgresVersion1UpgradeTest {
  @Test
  void aVersion1SchemaIsMigratedOnOpenAndItsRunResumesToCompletionWithTheWriteOnce()
      throws Exception {
    ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
    SqliteVersion1UpgradeTest.Upgrade u = new SqliteVersion1UpgradeTest.Upgrade(clock);
    try (PgSchema current = PgSchema.create().pinClock();
        PgSchema old = PgSchema.createEmpty()) {
      try (JdbcStore worker = current.openWorker();
          PinnedStore store = current.pinned(worker, clock, false)) {
        u.leaveAPendingWrite(store, store);
      }
      try (Connection from = owner(current);
          Connection to = owner(old)) {
        Database db = old.owner();
        Version1Store.createAtVersion1(to, Dialect.of(db).migrations(db).get(0).statements());
        Version1Store.copyAsVersion1(from, to, u.keyRing());
        assertThat(versions(to)).containsExactly(1);
      }
      JdbcStore.open(old.owner(), PgSchema.options().withOpenMode(OpenMode.MUST_EXIST)).close();
      PostgresAccess.grantWorker(old.owner(), Postgres.WORKER);
      PostgresAccess.grantInspector(old.owner(), Postgres.INSPECTOR);
      PostgresAccess.grantOperator(old.owner(), Postgres.OPERATOR);
      try (Connection c = owner(old)) {
        assertThat(versions(c))
            .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20);
      }
      old.pinClock();
      try (JdbcStore worker = old.openWorker();
          PinnedStore store = old.pinned(worker, clock, false)) {
        u.resumeToCompletion(store, store);
      }
    }
  }

  private static Connection owner(PgSchema s) throws SQLException {
    Connection c = Postgres.connect(Postgres.URL, Postgres.OWNER);
    Postgres.exec(c, "SET search_path TO " + s.name);
    return c;
  }

  private static List<Integer> versions(Connection c) throws SQLException {
    List<Integer> out = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT version FROM ratchet_schema ORDER BY version")) {
      while (rs.next()) {
        out.add(rs.getInt(1));
      }
    }
    return out;
  }
}
