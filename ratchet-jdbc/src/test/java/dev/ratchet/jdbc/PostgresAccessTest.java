package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.store.CommitResult;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The roles of docs/store.md: a worker cannot move a mark back (PostgreSQL refuses the statement),
 * the functions move it only forward under the live lease, and nothing a worker does in its own
 * session reaches inside them.
 */
@RequiresPostgres
class PostgresAccessTest {
  private static final String INSUFFICIENT_PRIVILEGE = "42501";

  @RegisterExtension static final PgSchemaExtension SCHEMA = PgSchemaExtension.migrated();

  private JdbcStore store;
  private TestRun run;
  private Connection worker;

  @BeforeEach
  void commitThreeGenerations() throws SQLException {
    SCHEMA.get().truncate();
    store = SCHEMA.get().openWorker();
    run = new TestRun(store, store, "run-a").commits(3, 2);
    worker = connect(Postgres.WORKER);
  }

  @AfterEach
  void close() throws SQLException {
    worker.close();
    store.close();
  }

  private Connection connect(String role) throws SQLException {
    Connection c = Postgres.connect(Postgres.URL, role);
    c.setSchema(SCHEMA.get().name);
    return c;
  }

  private static String sqlState(Connection c, String sql) {
    Throwable t =
        catchThrowable(
            () -> {
              try (Statement s = c.createStatement()) {
                s.execute(sql);
              }
            });
    assertThat(t).as(sql).isInstanceOf(SQLException.class);
    return ((SQLException) t).getSQLState();
  }

  private void assertStillAtThree() {
    assertThat(store.load(TestRun.TASK, "run-a").orElseThrow().generation()).isEqualTo(3);
  }

  @Test
  void aDirectRollbackUpdateByTheWorkerIsRefusedByPostgres() {
    assertThat(
            sqlState(
                worker,
                "UPDATE ratchet_marks SET generation = 2, content_digest ="
                    + " (SELECT content_digest FROM ratchet_generations WHERE run_id = 'run-a'"
                    + " AND generation = 2) WHERE run_id = 'run-a'"))
        .isEqualTo(INSUFFICIENT_PRIVILEGE);
    assertStillAtThree();
  }

  @Test
  void theWorkerCannotDeleteInsertOrTruncateMarksNorRewriteTheLogLeasesOrRecords() {
    List<String> refused =
        List.of(
            "DELETE FROM ratchet_marks WHERE run_id = 'run-a'",
            "INSERT INTO ratchet_marks VALUES ('task-1', 'run-b', 9, 'd', 'env-1')",
            "TRUNCATE ratchet_marks",
            "UPDATE ratchet_generations SET content_digest = 'x'",
            "DELETE FROM ratchet_generations",
            "UPDATE ratchet_leases SET expires_at_ms = expires_at_ms + 3600000",
            "UPDATE ratchet_leases SET version = version - 1",
            "INSERT INTO ratchet_leases VALUES ('run-z', 'mallory', 1, 9223372036854775807, 1)",
            "DELETE FROM ratchet_leases",
            "UPDATE ratchet_records SET body = '{}'",
            "DELETE FROM ratchet_records",
            "DELETE FROM ratchet_inbox",
            "UPDATE ratchet_schema SET version = 0");
    for (String sql : refused) {
      assertThat(sqlState(worker, sql)).as(sql).isEqualTo(INSUFFICIENT_PRIVILEGE);
    }
    assertStillAtThree();
  }

  @Test
  void theWorkerHoldsExactlyTheDocumentedTablePrivileges() throws SQLException {
    Set<String> held = new TreeSet<>();
    try (PreparedStatement ps =
        worker.prepareStatement(
            "SELECT table_name || ':' || privilege_type FROM information_schema.role_table_grants"
                + " WHERE grantee = ? AND table_schema = ?")) {
      ps.setString(1, Postgres.WORKER);
      ps.setString(2, SCHEMA.get().name);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          held.add(rs.getString(1));
        }
      }
    }
    Set<String> expected = new TreeSet<>();
    for (String t :
        List.of(
            "ratchet_schema",
            "ratchet_marks",
            "ratchet_generations",
            "ratchet_checkpoints",
            "ratchet_records",
            "ratchet_leases",
            "ratchet_schedule",
            "ratchet_submissions",
            "ratchet_inbox")) {
      expected.add(t + ":SELECT");
    }
    // Since schema version 2 (D21) a worker writes no table directly: SELECT is all it holds.
    assertThat(held).isEqualTo(expected);
  }

  /** ratchet_advance with the run's real lease token: only generation and fence can refuse it. */
  private int advance(Connection c, long expected, String owner, long leaseVersion)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT o_rows FROM ratchet_advance('task-1', 'run-a', 'env-1', ?, 'forged', ?, ?, ?,"
                + " 3)")) {
      ps.setLong(1, expected);
      ps.setString(2, owner);
      ps.setLong(3, leaseVersion);
      ps.setBytes(4, run.lease.requireToken().secret());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  @Test
  void theFunctionNeverMovesTheMarkBackwardsOrSkips() throws SQLException {
    long v = run.fence.leaseVersion();
    for (long expected : List.of(0L, 1L, 2L, 4L, 10L)) {
      assertThat(advance(worker, expected, run.fence.owner(), v))
          .as("expected " + expected)
          .isZero();
    }
    assertThat(
            sqlState(
                worker,
                "SELECT * FROM ratchet_advance('task-1', 'run-a', 'env-1', -1,"
                    + " 'forged', 'writer', 1, '\\x00'::bytea, 3)"))
        .isEqualTo("22023");
    assertStillAtThree();
  }

  @Test
  void theFunctionRefusesAnyFenceButTheLiveLease() throws SQLException {
    long v = run.fence.leaseVersion();
    assertThat(advance(worker, 3, "mallory", v)).isZero();
    assertThat(advance(worker, 3, run.fence.owner(), v + 1)).isZero();
    assertThat(advance(worker, 3, run.fence.owner(), v - 1)).isZero();
    assertStillAtThree();
  }

  @Test
  void aTemporaryTableCannotShadowTheLeaseTableInsideTheFunction() throws SQLException {
    // In the worker's own session pg_temp comes first: its unqualified reads see the fake lease.
    Postgres.exec(
        worker,
        "CREATE TEMP TABLE ratchet_leases (run_id TEXT, owner TEXT, version BIGINT,"
            + " expires_at_ms BIGINT, held INTEGER, token_hash TEXT)",
        "INSERT INTO ratchet_leases VALUES ('run-a', 'mallory', 99, 9223372036854775807, 1,"
            + " encode(sha256('"
            + tokenLiteral()
            + "'::bytea), 'hex'))",
        "CREATE TEMP TABLE ratchet_marks (task_id TEXT, run_id TEXT, generation BIGINT,"
            + " content_digest TEXT, environment_instance_id TEXT)");
    // The function pins search_path to the store's schema with pg_temp last.
    assertThat(advance(worker, 3, "mallory", 99)).isZero();
    assertStillAtThree();
  }

  /** The run's real token as a bytea literal (the temp-table attack knows it, and still fails). */
  private String tokenLiteral() {
    return "\\x" + java.util.HexFormat.of().formatHex(run.lease.requireToken().secret());
  }

  @Test
  void anInspectorReadsButCanNeitherCommitNorLease() throws SQLException {
    try (JdbcStore inspector = JdbcStore.open(SCHEMA.get().inspector(), PgSchema.options())) {
      assertThat(inspector.load(TestRun.TASK, "run-a").orElseThrow().generation()).isEqualTo(3);
      Throwable commit = catchThrowable(() -> inspector.commit(run.next(1)));
      assertThat(((RatchetException) commit).code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
      assertThat(commit).hasMessageContaining("permission denied");
      Throwable lease =
          catchThrowable(() -> inspector.acquire("run-b", "w", java.time.Duration.ofMinutes(1)));
      assertThat(((RatchetException) lease).code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
    }
    try (Connection c = connect(Postgres.INSPECTOR)) {
      assertThat(sqlState(c, "UPDATE ratchet_marks SET generation = 1"))
          .isEqualTo(INSUFFICIENT_PRIVILEGE);
      assertThat(
              sqlState(
                  c,
                  "SELECT * FROM ratchet_advance('task-1', 'run-a', 'env-1', 3, 'd', 'writer', 1,"
                      + " '\\x00'::bytea, 3)"))
          .isEqualTo(INSUFFICIENT_PRIVILEGE);
    }
    assertStillAtThree();
  }

  @Test
  void theWorkerStillCommitsForwardThroughTheStore() {
    assertThat(store.commit(run.next(1))).isEqualTo(new CommitResult.Committed(4));
  }

  @Test
  void aSuperuserCannotBeMadeAWorker() {
    Throwable t =
        catchThrowable(() -> PostgresAccess.grantWorker(SCHEMA.get().owner(), Postgres.ADMIN));
    assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.CONTRACT);
    Throwable owner =
        catchThrowable(() -> PostgresAccess.grantWorker(SCHEMA.get().owner(), Postgres.OWNER));
    assertThat(((RatchetException) owner).code()).isEqualTo(ErrorCode.CONTRACT);
  }

  @Test
  void aWorkerCannotCreateOrMigrateAStore() throws SQLException {
    try (PgSchema empty = PgSchema.createEmpty()) {
      Database w = empty.worker();
      Throwable mustExist = catchThrowable(() -> JdbcStore.open(w, PgSchema.options()));
      assertThat(((RatchetException) mustExist).code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
      assertThat(mustExist).hasMessageContaining("not an initialised Ratchet store");
      Throwable create =
          catchThrowable(() -> JdbcStore.open(w, PgSchema.options().withOpenMode(OpenMode.CREATE)));
      assertThat(((RatchetException) create).code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
      assertThat(tables(empty.name)).isEmpty();
    }
  }

  private static List<String> tables(String schemaName) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = Postgres.admin();
        PreparedStatement ps =
            c.prepareStatement("SELECT tablename FROM pg_tables WHERE schemaname = ?")) {
      ps.setString(1, schemaName);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
    }
    return out;
  }
}
