package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseToken;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.RunScope;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * The roles of SPEC D21 against an attacker who connects as the worker role and reads every row of
 * every table (owner names, lease versions, token hashes): the victim's lease token is the one
 * thing it lacks. Each attempt is refused <em>at the write</em>, by PostgreSQL (permission denied,
 * {@code 42501}) or by the function (no row changed, or an exception), and afterwards the victim
 * still commits forward: nothing was disabled. docs/store.md lists each row with its test here.
 */
@RequiresPostgres
class PostgresRolesTest {
  private static final String DENIED = "42501";

  private static PgSchema schema;
  private JdbcStore store;
  private TestRun victim;
  private Connection attacker;

  @BeforeAll
  static void createSchema() {
    schema = PgSchema.create();
  }

  @AfterAll
  static void dropSchema() {
    if (schema != null) {
      schema.close();
    }
  }

  @BeforeEach
  void victimCommitsThreeGenerations() throws SQLException {
    schema.truncate();
    store = schema.openWorker();
    victim = new TestRun(store, store, "run-a").commits(3, 2);
    attacker = connect(Postgres.WORKER);
  }

  @AfterEach
  void close() throws SQLException {
    attacker.close();
    store.close();
  }

  private static Connection connect(String role) throws SQLException {
    Connection c = Postgres.connect(Postgres.URL, role);
    c.setSchema(schema.name);
    return c;
  }

  /** What the attacker reads: the victim's lease row, hash included. */
  private record Row(String owner, long version, long expiresAtMs, int held, String tokenHash) {}

  private Row leaseRow(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT owner, version, expires_at_ms, held, token_hash FROM ratchet_leases"
                    + " WHERE run_id = 'run-a'")) {
      rs.next();
      return new Row(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getInt(4), rs.getString(5));
    }
  }

  /** Every token an attacker who read the row might try: zeros, the hash, the hash's bytes. */
  private List<byte[]> guesses(Row r) {
    return List.of(
        new byte[32],
        r.tokenHash().getBytes(StandardCharsets.US_ASCII),
        HexFormat.of().parseHex(r.tokenHash()));
  }

  private static String sqlState(Connection c, String sql, Object... args) {
    Throwable t = catchThrowable(() -> query(c, sql, args));
    assertThat(t).as(sql).isInstanceOf(SQLException.class);
    return ((SQLException) t).getSQLState();
  }

  /** Runs {@code sql} with {@code args}; returns the first column of the first row (or null). */
  private static Object query(Connection c, String sql, Object... args) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      if (!ps.execute()) {
        return null;
      }
      try (ResultSet rs = ps.getResultSet()) {
        return rs.next() ? rs.getObject(1) : null;
      }
    }
  }

  /** The victim's run and lease are exactly as before, and it still commits forward. */
  private void assertVictimUnharmed(Row before) throws SQLException {
    assertThat(leaseRow(attacker)).isEqualTo(before);
    assertThat(store.load(TestRun.TASK, "run-a").orElseThrow().generation()).isEqualTo(3);
    assertThat(store.records(TestRun.TASK, "run-a", RecordSet.TRACE, 1, 100)).hasSize(6);
    assertThat(store.commit(victim.next(1))).isEqualTo(new CommitResult.Committed(4));
  }

  @Test
  void theStoreKeepsTheTokensHashNeverTheToken() throws SQLException {
    Row r = leaseRow(attacker);
    byte[] secret = victim.lease.requireToken().secret();
    assertThat(r.tokenHash()).isEqualTo(victim.lease.requireToken().hash());
    assertThat(r.tokenHash()).isNotEqualTo(HexFormat.of().formatHex(secret));
    assertThat(r.tokenHash())
        .isEqualTo(
            query(attacker, "SELECT encode(sha256(?::bytea), 'hex')", (Object) secret).toString());
  }

  @Test
  void aWorkerCannotRenewAnotherWorkersLease() throws SQLException {
    Row before = leaseRow(attacker);
    for (byte[] guess : guesses(before)) {
      Object expires =
          query(
              attacker,
              "SELECT o_expires_at_ms FROM ratchet_renew('run-a', ?, ?, ?, 3600000)",
              before.owner(),
              before.version(),
              guess);
      assertThat(expires).isNull();
    }
    assertVictimUnharmed(before);
  }

  @Test
  void aWorkerCannotReleaseAnotherWorkersLease() throws SQLException {
    Row before = leaseRow(attacker);
    for (byte[] guess : guesses(before)) {
      assertThat(
              query(
                  attacker,
                  "SELECT ratchet_release('run-a', ?, ?, ?)",
                  before.owner(),
                  before.version(),
                  guess))
          .isEqualTo(0);
    }
    assertVictimUnharmed(before);
  }

  @Test
  void aWorkerCannotStealALiveLeaseByGrantingOverIt() throws SQLException {
    Row before = leaseRow(attacker);
    for (boolean steal : List.of(true, false)) {
      for (String owner : List.of("attacker", before.owner())) {
        Object version =
            query(
                attacker,
                "SELECT o_version FROM ratchet_grant('run-a', ?, 3600000, ?, ?)",
                owner,
                steal,
                "0".repeat(64));
        assertThat(version).as(owner + " steal=" + steal).isNull();
      }
    }
    assertThat(store.acquire("run-a", "attacker", Duration.ofHours(1))).isEmpty();
    assertThat(store.takeOver("run-a", "attacker", Duration.ofHours(1))).isEmpty();
    assertVictimUnharmed(before);
  }

  @Test
  void aWorkerCannotCommitToAnotherWorkersRun() throws SQLException {
    Row before = leaseRow(attacker);
    String digest = store.load(TestRun.TASK, "run-a").orElseThrow().contentDigest();
    for (byte[] guess : guesses(before)) {
      Object rows =
          query(
              attacker,
              "SELECT o_rows FROM ratchet_advance('task-1', 'run-a', 'env-1', 3, ?, ?, ?, ?, 3)",
              digest,
              before.owner(),
              before.version(),
              guess);
      assertThat(rows).isEqualTo(0);
    }
    Lease forged =
        new Lease(
            "run-a",
            before.owner(),
            before.version(),
            victim.lease.expiresAt(),
            LeaseToken.of(new byte[32]));
    RunScope scope = new RunScope(TestRun.TASK, "run-a", TestRun.ENV);
    CommitRequest request = new CommitRequest(scope, 3, forged, "{}", List.of());
    assertThat(store.commit(request).kind()).isEqualTo(CommitResult.Kind.FENCED);
    assertVictimUnharmed(before);
  }

  @Test
  void aWorkerCannotAppendRecordsToAnotherWorkersRun() throws SQLException {
    Row before = leaseRow(attacker);
    for (byte[] guess : guesses(before)) {
      assertThat(
              sqlState(
                  attacker,
                  "SELECT ratchet_append('task-1', 'run-a', 'trace', 1000, 'k', '{}', 'c', ?, ?,"
                      + " ?)",
                  before.owner(),
                  before.version(),
                  guess))
          .isEqualTo(DENIED);
    }
    assertThat(
            sqlState(
                attacker,
                "INSERT INTO ratchet_records VALUES ('task-1', 'run-a', 'trace', 1000, 'k', '{}',"
                    + " 'c')"))
        .isEqualTo(DENIED);
    assertThat(sqlState(attacker, "UPDATE ratchet_records SET body = '{}'")).isEqualTo(DENIED);
    assertThat(sqlState(attacker, "DELETE FROM ratchet_records")).isEqualTo(DENIED);
    assertVictimUnharmed(before);
  }

  @Test
  void aWorkerCannotEditOrDeleteCheckpointContent() throws SQLException {
    Row before = leaseRow(attacker);
    List<String> refused =
        List.of(
            "UPDATE ratchet_checkpoints SET body = '{}'",
            "DELETE FROM ratchet_checkpoints",
            "INSERT INTO ratchet_checkpoints VALUES ('task-1', 'run-a', 'd', 9, '{}')",
            "INSERT INTO ratchet_inbox VALUES ('task-1', 'run-a', 'n', 1, 'APPROVAL', '{}')",
            "TRUNCATE ratchet_checkpoints");
    for (String sql : refused) {
      assertThat(sqlState(attacker, sql)).as(sql).isEqualTo(DENIED);
    }
    List<String> writes =
        List.of(
            "SELECT ratchet_prune_content('task-1', 'run-a', 1000, ARRAY[]::text[], ?, ?, ?)",
            "SELECT ratchet_put_content('task-1', 'run-a',"
                + " encode(sha256(convert_to('{}', 'UTF8')), 'hex'), 9, '{}', ?, ?, ?)");
    for (byte[] guess : guesses(before)) {
      for (String sql : writes) {
        assertThat(sqlState(attacker, sql, before.owner(), before.version(), guess))
            .as(sql)
            .isEqualTo(DENIED);
      }
    }
    assertVictimUnharmed(before);
  }

  @Test
  void aWorkerCannotDeliverToTheInbox() throws SQLException {
    assertThat(
            sqlState(
                attacker, "SELECT ratchet_deliver('task-1', 'run-a', 'n-1', 'APPROVAL', '{}')"))
        .isEqualTo(DENIED);
    assertThat(store.inbox(TestRun.TASK, "run-a")).isEmpty();
  }

  @Test
  void anOperatorDeliversThroughTheFunctionOnlyAndItIsNotified() throws SQLException {
    try (Connection op = connect(Postgres.OPERATOR);
        Connection listener = connect(Postgres.WORKER)) {
      Postgres.exec(listener, "LISTEN ratchet_inbox");
      assertThat(
              query(
                  op, "SELECT ratchet_deliver('task-1', 'run-a', 'n-1', 'APPROVAL', '{\"a\":1}')"))
          .isEqualTo(1L);
      assertThat(store.inbox(TestRun.TASK, "run-a"))
          .containsExactly(new InboxItem("n-1", InboxItem.Kind.APPROVAL, "{\"a\":1}"));
      query(listener, "SELECT 1");
      PGNotification[] got = listener.unwrap(PGConnection.class).getNotifications(5000);
      // The channel is the database's: deliveries of tests in other schemas may be among them.
      assertThat(got).isNotNull();
      assertThat(java.util.Arrays.stream(got).map(PGNotification::getParameter))
          .anyMatch(p -> p.contains("\"run\" : \"run-a\""));

      String deliver = "SELECT ratchet_deliver(?, ?, ?, ?, ?)";
      assertThat(sqlState(op, deliver, "task-1", "nobody", "n-2", "APPROVAL", "{}"))
          .isEqualTo("RT404");
      assertThat(sqlState(op, deliver, "task-1", "run-a", "n-1", "APPROVAL", "{}"))
          .isEqualTo("RT409");
      for (Object[] bad :
          List.of(
              new Object[] {"task-1", "run-a", "", "APPROVAL", "{}"},
              new Object[] {"task-1", "run-a", "n-3", "ROOT", "{}"},
              new Object[] {"task-1", "run-a", "n-3", "APPROVAL", "[1]"},
              new Object[] {"task-1", "run-a", "n-3", "APPROVAL", "not json"})) {
        assertThat(sqlState(op, deliver, bad)).as(List.of(bad).toString()).isEqualTo("22023");
      }
      List<String> refused =
          List.of(
              "INSERT INTO ratchet_inbox VALUES ('task-1', 'run-a', 'n', 9, 'APPROVAL', '{}')",
              "DELETE FROM ratchet_inbox",
              "UPDATE ratchet_marks SET generation = 1",
              "DELETE FROM ratchet_checkpoints",
              "SELECT ratchet_release('run-a', 'writer', 1, '\\x00'::bytea)",
              "SELECT * FROM ratchet_grant('run-b', 'op', 1000, true, repeat('0', 64))");
      for (String sql : refused) {
        assertThat(sqlState(op, sql)).as(sql).isEqualTo(DENIED);
      }
      assertThat(query(op, "SELECT count(*) FROM ratchet_marks")).isEqualTo(1L);
    }
    assertThat(store.inbox(TestRun.TASK, "run-a")).hasSize(1);
  }

  @Test
  void sinceVersion3AnOperatorDeliversACancelAndAnUnknownKindIsStillRefused() throws SQLException {
    try (Connection op = connect(Postgres.OPERATOR)) {
      String deliver = "SELECT ratchet_deliver(?, ?, ?, ?, ?)";
      assertThat(query(op, deliver, "task-1", "run-a", "c-1", "CANCEL", "{\"a\":1}")).isEqualTo(1L);
      assertThat(store.inbox(TestRun.TASK, "run-a"))
          .containsExactly(new InboxItem("c-1", InboxItem.Kind.CANCEL, "{\"a\":1}"));
      assertThat(sqlState(op, deliver, "task-1", "run-a", "c-2", "SUBMIT", "{}"))
          .isEqualTo("22023");
      assertThat(sqlState(op, deliver, "task-1", "run-a", "c-1", "CANCEL", "{}"))
          .isEqualTo("RT409");
    }
  }

  @Test
  void sinceVersion13AnOperatorDeliversPausesUnpausesAndMigrations() throws SQLException {
    try (Connection op = connect(Postgres.OPERATOR)) {
      String deliver = "SELECT ratchet_deliver(?, ?, ?, ?, ?)";
      assertThat(query(op, deliver, "task-1", "run-a", "p-1", "PAUSE", "{}")).isEqualTo(1L);
      assertThat(query(op, deliver, "task-1", "run-a", "u-1", "UNPAUSE", "{}")).isEqualTo(2L);
      assertThat(query(op, deliver, "task-1", "run-a", "m-1", "MIGRATE", "{}")).isEqualTo(3L);
      assertThat(store.inbox(TestRun.TASK, "run-a"))
          .extracting(InboxItem::kind)
          .containsExactly(InboxItem.Kind.PAUSE, InboxItem.Kind.UNPAUSE, InboxItem.Kind.MIGRATE);
      assertThat(sqlState(op, deliver, "task-1", "run-a", "p-1", "PAUSE", "{}")).isEqualTo("RT409");
    }
  }

  @Test
  void anInspectorOnlyReads() throws SQLException {
    try (Connection c = connect(Postgres.INSPECTOR)) {
      assertThat(query(c, "SELECT count(*) FROM ratchet_records")).isEqualTo(6L);
      List<String> refused =
          List.of(
              "SELECT ratchet_deliver('task-1', 'run-a', 'n-1', 'APPROVAL', '{}')",
              "INSERT INTO ratchet_inbox VALUES ('task-1', 'run-a', 'n', 9, 'APPROVAL', '{}')",
              "DELETE FROM ratchet_checkpoints",
              "SELECT * FROM ratchet_grant('run-b', 'i', 1000, true, repeat('0', 64))");
      for (String sql : refused) {
        assertThat(sqlState(c, sql)).as(sql).isEqualTo(DENIED);
      }
    }
  }

  @Test
  void noRoleButTheOwnerHoldsAnyTableWriteAndEachExecutesExactlyItsFunctions() throws SQLException {
    for (String role : List.of(Postgres.WORKER, Postgres.OPERATOR, Postgres.INSPECTOR)) {
      assertThat(tablePrivileges(role)).as(role).containsOnly("SELECT");
    }
    assertThat(functions(Postgres.WORKER))
        .containsExactly(
            "ratchet_advance",
            "ratchet_append",
            "ratchet_claim",
            "ratchet_claim_held",
            "ratchet_claim_next",
            "ratchet_commit",
            "ratchet_commit_batch",
            "ratchet_finish",
            "ratchet_finish_release",
            "ratchet_finish_with_reason",
            "ratchet_grant",
            "ratchet_now_ms",
            "ratchet_park",
            "ratchet_park_with_reason",
            "ratchet_prune_content",
            "ratchet_put_content",
            "ratchet_release",
            "ratchet_renew",
            "ratchet_wake_waiting");
    assertThat(functions(Postgres.OPERATOR))
        .containsExactly(
            "ratchet_deliver",
            "ratchet_now_ms",
            "ratchet_schedule",
            "ratchet_submit",
            "ratchet_wake_waiting");
    assertThat(functions(Postgres.INSPECTOR)).containsExactly("ratchet_now_ms");
  }

  private Set<String> tablePrivileges(String role) throws SQLException {
    return new TreeSet<>(
        column(
            "SELECT privilege_type FROM information_schema.role_table_grants"
                + " WHERE grantee = ? AND table_schema = ?",
            role,
            schema.name));
  }

  private List<String> functions(String role) throws SQLException {
    return column(
        "SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
            + " WHERE n.nspname = ? AND has_function_privilege(?, p.oid, 'EXECUTE')"
            + " ORDER BY p.proname",
        schema.name,
        role);
  }

  /** The first column of every row {@code sql} returns, read over an administrator connection. */
  private static List<String> column(String sql, String... params) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection admin = Postgres.admin();
        PreparedStatement ps = admin.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setString(i + 1, params[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
    }
    return out;
  }
}
