package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.Lease;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Leases on the real database clock (SPEC D8), unpinned: the workers' own clocks are set absurdly
 * far apart and play no part; expiry happens when the server's {@code clock_timestamp()} passes it.
 * The test waits on the database clock itself, not on a sleep of guessed length.
 */
@RequiresPostgres
class PostgresClockTest {
  @RegisterExtension static final PgSchemaExtension SCHEMA = PgSchemaExtension.migrated();

  private JdbcStore in1970;
  private JdbcStore in2100;
  private Connection admin;

  @BeforeEach
  void open() throws SQLException {
    SCHEMA.get().truncate();
    in1970 =
        JdbcStore.open(
            SCHEMA.get().worker(),
            PgSchema.options().withClock(InstantSource.fixed(Instant.EPOCH)));
    in2100 =
        JdbcStore.open(
            SCHEMA.get().worker(),
            PgSchema.options()
                .withClock(InstantSource.fixed(Instant.parse("2100-01-01T00:00:00Z"))));
    admin = Postgres.admin();
    admin.setSchema(SCHEMA.get().name);
  }

  @AfterEach
  void close() throws SQLException {
    in1970.close();
    in2100.close();
    admin.close();
  }

  private long databaseNow() throws SQLException {
    try (Statement s = admin.createStatement();
        ResultSet rs = s.executeQuery("SELECT ratchet_now_ms()")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Waits until the database clock has passed {@code t} (bounded). */
  private void awaitDatabaseTime(Instant t) throws Exception {
    long deadline = t.toEpochMilli() + 10_000;
    long now;
    while ((now = databaseNow()) < t.toEpochMilli()) {
      assertThat(now).as("database clock stalled").isLessThan(deadline);
      Thread.sleep(Math.min(50, t.toEpochMilli() - now + 1));
    }
  }

  private static void assertFenced(Runnable call) {
    Throwable t = catchThrowable(call::run);
    assertThat(t).isInstanceOf(RatchetException.class);
    assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.FENCED);
  }

  @Test
  void theClockFunctionIsTheServersClockTimestamp() throws SQLException {
    try (Statement s = admin.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint,"
                    + " ratchet_now_ms(),"
                    + " floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint")) {
      rs.next();
      assertThat(rs.getLong(2)).isBetween(rs.getLong(1), rs.getLong(3));
    }
  }

  /**
   * Schema version 9: the planner inlines the clock where it is called (no per-call parse and plan
   * of its body), and its qualified names leave a hostile search_path nothing to shadow.
   */
  @Test
  void theClockIsInlinedAndNoSearchPathChangesIt() throws SQLException {
    StringBuilder plan = new StringBuilder();
    try (Statement s = admin.createStatement();
        ResultSet rs = s.executeQuery("EXPLAIN (VERBOSE, COSTS OFF) SELECT ratchet_now_ms()")) {
      while (rs.next()) {
        plan.append(rs.getString(1)).append('\n');
      }
    }
    assertThat(plan.toString()).contains("clock_timestamp()").doesNotContain("ratchet_now_ms");
    String shadow = SCHEMA.get().name + "_shadow";
    try (Statement s = admin.createStatement()) {
      // A function and an operator that would win an unqualified lookup on this search_path.
      s.execute("CREATE SCHEMA " + shadow);
      s.execute(
          "CREATE FUNCTION "
              + shadow
              + ".clock_timestamp() RETURNS timestamptz LANGUAGE sql"
              + " AS $$ SELECT timestamptz '2000-01-01' $$");
      s.execute(
          "CREATE FUNCTION "
              + shadow
              + ".times(double precision, integer) RETURNS double precision LANGUAGE sql"
              + " AS $$ SELECT 0::double precision $$");
      s.execute(
          "CREATE OPERATOR "
              + shadow
              + ".* (FUNCTION = "
              + shadow
              + ".times, LEFTARG = double precision, RIGHTARG = integer)");
      try {
        s.execute("SET search_path = " + shadow + ", " + SCHEMA.get().name + ", pg_catalog");
        long before = System.currentTimeMillis();
        long now = databaseNow();
        assertThat(now).isBetween(before - 60_000, System.currentTimeMillis() + 60_000);
      } finally {
        s.execute("SET search_path = " + SCHEMA.get().name);
        s.execute("DROP SCHEMA " + shadow + " CASCADE");
      }
    }
  }

  @Test
  void expiryIsTheDatabaseTimePlusTheTtlWhateverTheWorkersClockSays() throws SQLException {
    Duration ttl = Duration.ofMinutes(10);
    long before = databaseNow();
    Lease l = in1970.acquire("run-a", "w1", ttl).orElseThrow();
    long after = databaseNow();
    assertThat(l.expiresAt().toEpochMilli())
        .isBetween(before + ttl.toMillis(), after + ttl.toMillis());
    // A worker whose own clock is 74 years later still sees the lease live and cannot steal it.
    in2100.check(l.fence());
    assertThat(in2100.takeOver("run-a", "w2", ttl)).isEmpty();
    Lease renewed = in2100.renew(l, ttl);
    assertThat(renewed.expiresAt()).isAfterOrEqualTo(l.expiresAt());
  }

  @Test
  void aShortLeaseExpiresWhenTheDatabaseClockPassesIt() throws Exception {
    Lease l = in1970.acquire("run-c", "w1", Duration.ofMillis(1500)).orElseThrow();
    // The 2100 worker's clock is far past the expiry; the database's is not.
    in2100.check(l.fence());
    assertThat(in2100.takeOver("run-c", "w2", Duration.ofMinutes(5))).isEmpty();
    awaitDatabaseTime(l.expiresAt());
    // The 1970 worker's clock is far before the expiry; the database's is past it.
    assertFenced(() -> in1970.check(l.fence()));
    assertFenced(() -> in1970.renew(l, Duration.ofSeconds(30)));
    Lease taken = in1970.takeOver("run-c", "w2", Duration.ofMinutes(5)).orElseThrow();
    assertThat(taken.version()).isEqualTo(l.version() + 1);
    assertFenced(() -> in2100.check(l.fence()));
  }

  @Test
  void aCommitAfterTheDatabaseClockPassedTheLeaseIsFenced() throws Exception {
    Lease l = in2100.acquire("run-d", "writer", Duration.ofMillis(1000)).orElseThrow();
    TestRunWithFence run = new TestRunWithFence(in2100, "run-d", l);
    assertThat(in2100.commit(run.next())).isEqualTo(new CommitResult.Committed(1));
    awaitDatabaseTime(l.expiresAt());
    assertThat(in1970.commit(run.next())).isInstanceOf(CommitResult.Fenced.class);
    assertThat(in1970.load(TestRun.TASK, "run-d").orElseThrow().generation()).isEqualTo(1);
  }

  /** A {@link TestRun}-like writer with a given lease. */
  private static final class TestRunWithFence {
    private final JdbcStore store;
    private final String runId;
    private final Lease lease;

    TestRunWithFence(JdbcStore store, String runId, Lease lease) {
      this.store = store;
      this.runId = runId;
      this.lease = lease;
    }

    dev.ratchet.store.CommitRequest next() {
      long g = store.load(TestRun.TASK, runId).map(r -> r.generation()).orElse(0L);
      return new dev.ratchet.store.CommitRequest(
          new dev.ratchet.store.RunScope(TestRun.TASK, runId, TestRun.ENV),
          g,
          lease,
          TestRun.checkpoint(runId, g + 1, dev.ratchet.store.SetHead.EMPTY),
          java.util.List.of());
    }
  }
}
