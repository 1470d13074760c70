package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ratchet.schedule.RunnableListener;
import dev.ratchet.schedule.SignedSubmission;
import dev.ratchet.store.LeaseToken;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Schema version 4 on PostgreSQL (ADR 0060): an operator enqueues a run, a worker claims it through
 * {@code ratchet_claim} (the lease is granted to the worker's token, D21), parks it while it waits
 * and finishes it; claims skip rows another claim has locked, a lapsed lease makes the run
 * claimable again, and an inbox item wakes a parked run and notifies {@code ratchet_runnable}.
 */
@RequiresPostgres
class PostgresSchedulingTest {
  private static final SecureRandom RNG = new SecureRandom();
  private static PgSchema schema;
  private Connection operator;
  private Connection worker;

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
  void connect() throws SQLException {
    schema.truncate();
    schema.exec("DELETE FROM " + schema.name + ".ratchet_schedule");
    operator = connect(Postgres.OPERATOR);
    worker = connect(Postgres.WORKER);
  }

  @AfterEach
  void close() throws SQLException {
    operator.close();
    worker.close();
  }

  private static Connection connect(String role) throws SQLException {
    Connection c = Postgres.connect(Postgres.URL, role);
    c.setSchema(schema.name);
    return c;
  }

  private static LeaseToken token() {
    byte[] secret = new byte[LeaseToken.BYTES];
    RNG.nextBytes(secret);
    return LeaseToken.of(secret);
  }

  private record Claim(String run, String driver, String taskRef, long nudges, long version) {}

  private void submit(String run) throws SQLException {
    try (PreparedStatement ps = operator.prepareStatement("SELECT ratchet_schedule(?, ?, ?, ?)")) {
      ps.setString(1, "task-1");
      ps.setString(2, run);
      ps.setString(3, "plan");
      ps.setString(4, "tasks/" + run + ".json");
      ps.execute();
    }
  }

  private static Optional<Claim> claim(Connection c, String owner, long ttlMs, LeaseToken token)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT o_run, o_driver, o_task_ref, o_nudges, o_version FROM ratchet_claim(?, ?, ?)")) {
      ps.setString(1, owner);
      ps.setLong(2, ttlMs);
      ps.setString(3, token.hash());
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        return Optional.of(
            new Claim(
                rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4), rs.getLong(5)));
      }
    }
  }

  private int park(
      String run, long seenNudges, Long wakeAtMs, String owner, Claim claim, LeaseToken token)
      throws SQLException {
    try (PreparedStatement ps =
        worker.prepareStatement("SELECT ratchet_park(?, ?, ?, ?, ?, ?, ?)")) {
      ps.setString(1, "task-1");
      ps.setString(2, run);
      ps.setLong(3, seenNudges);
      ps.setObject(4, wakeAtMs);
      ps.setString(5, owner);
      ps.setLong(6, claim.version());
      ps.setBytes(7, token.secret());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  private void release(String run, String owner, Claim claim, LeaseToken token)
      throws SQLException {
    try (PreparedStatement ps = worker.prepareStatement("SELECT ratchet_release(?, ?, ?, ?)")) {
      ps.setString(1, run);
      ps.setString(2, owner);
      ps.setLong(3, claim.version());
      ps.setBytes(4, token.secret());
      ps.execute();
    }
  }

  private String state(String run) throws SQLException {
    try (Statement s = worker.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT state FROM ratchet_schedule WHERE run_id = '" + run + "'")) {
      rs.next();
      return rs.getString(1);
    }
  }

  @Test
  void sinceVersion7AnOperatorSubmitsASignedTaskWhichIsScheduledAndWakesAListener()
      throws Exception {
    try (JdbcStore asWorker = JdbcStore.open(schema.worker(), PgSchema.options());
        JdbcStore asOperator = JdbcStore.open(schema.operator(), PgSchema.options());
        RunnableListener listening = asWorker.listen().orElseThrow()) {
      SignedSubmission envelope =
          new SignedSubmission("{\"payload\":{\"kind\":\"submitted_task\"}}");
      asOperator.submit("task-1", "run-s", "plan", envelope);
      assertThat(listening.await(10_000)).as("ratchet_runnable notified").isTrue();
      assertThat(asWorker.submission("task-1", "run-s")).contains(envelope);
      assertThat(state("run-s")).isEqualTo("runnable");
      dev.ratchet.schedule.Claim c =
          asWorker.claim("w1", java.time.Duration.ofMinutes(1)).orElseThrow();
      assertThat(c.submitted()).isTrue();

      dev.ratchet.error.RatchetException again =
          catchThrowableOfType(
              dev.ratchet.error.RatchetException.class,
              () -> asOperator.submit("task-1", "run-s", "plan", envelope));
      assertThat(again.code()).isEqualTo(dev.ratchet.error.ErrorCode.CONTRACT);
      assertThat(again).hasMessageContaining("run 'run-s' already exists or was submitted");
      assertThat(
              catchThrowableOfType(
                  dev.ratchet.error.RatchetException.class,
                  () ->
                      asOperator.submit(
                          "task-1", "run-t", "plan", new SignedSubmission("not json"))))
          .isNotNull();
      assertThat(asWorker.submission("task-1", "run-t")).isEmpty();
    }
    // The worker role may not submit: ratchet_submit is the operator's.
    SQLException denied =
        catchThrowableOfType(
            SQLException.class,
            () -> {
              try (PreparedStatement ps =
                  worker.prepareStatement(
                      "SELECT ratchet_submit('task-1', 'run-w', 'plan', '{}')")) {
                ps.execute();
              }
            });
    assertThat(denied.getSQLState()).isEqualTo("42501");
  }

  @Test
  void aSubmittedRunIsClaimedOnceAndItsLeaseIsTheClaimersToken() throws SQLException {
    submit("run-a");
    LeaseToken token = token();
    Optional<Claim> first = claim(worker, "w1", 60_000, token);
    assertThat(first).isPresent();
    assertThat(first.get().run()).isEqualTo("run-a");
    assertThat(first.get().driver()).isEqualTo("plan");
    assertThat(first.get().taskRef()).isEqualTo("tasks/run-a.json");
    assertThat(claim(worker, "w2", 60_000, token())).isEmpty();
    try (Statement s = worker.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT owner, held, token_hash FROM ratchet_leases WHERE run_id = 'run-a'")) {
      rs.next();
      assertThat(rs.getString(1)).isEqualTo("w1");
      assertThat(rs.getInt(2)).isEqualTo(1);
      assertThat(rs.getString(3)).isEqualTo(token.hash());
    }
  }

  @Test
  void aClaimSkipsTheRowAnotherClaimHasLockedInsteadOfWaiting() throws SQLException {
    submit("run-a");
    submit("run-b");
    Connection other = connect(Postgres.WORKER);
    try {
      other.setAutoCommit(false);
      Optional<Claim> held = claim(other, "w1", 60_000, token());
      // the other transaction is open: its row stays locked, so this claim must skip it
      Optional<Claim> mine = claim(worker, "w2", 60_000, token());
      assertThat(held).isPresent();
      assertThat(mine).isPresent();
      assertThat(mine.get().run()).isNotEqualTo(held.get().run());
      other.commit();
    } finally {
      other.close();
    }
  }

  @Test
  void aLapsedLeaseMakesTheRunClaimableAgainUnderANewVersion() throws Exception {
    submit("run-a");
    Claim dead = claim(worker, "w1", 50, token()).orElseThrow();
    Thread.sleep(200);
    Claim next = claim(worker, "w2", 60_000, token()).orElseThrow();
    assertThat(next.run()).isEqualTo("run-a");
    assertThat(next.version()).isGreaterThan(dead.version());
  }

  @Test
  void aParkedRunIsNotClaimedUntilAnInboxItemWakesItAndNotifies() throws Exception {
    submit("run-a");
    schema.exec(
        "INSERT INTO "
            + schema.name
            + ".ratchet_marks (task_id, run_id, generation, content_digest,"
            + " environment_instance_id) VALUES ('task-1', 'run-a', 1, 'd', 'env')");
    LeaseToken token = token();
    Claim c = claim(worker, "w1", 60_000, token).orElseThrow();
    assertThat(park("run-a", c.nudges(), null, "w1", c, token)).isEqualTo(1);
    release("run-a", "w1", c, token);
    assertThat(state("run-a")).isEqualTo("waiting");
    assertThat(claim(worker, "w2", 60_000, token())).isEmpty();

    Connection listener = connect(Postgres.WORKER);
    try {
      try (Statement s = listener.createStatement()) {
        s.execute("LISTEN ratchet_runnable");
      }
      try (PreparedStatement ps =
          operator.prepareStatement("SELECT ratchet_deliver(?, ?, ?, ?, ?)")) {
        ps.setString(1, "task-1");
        ps.setString(2, "run-a");
        ps.setString(3, "nonce-1");
        ps.setString(4, "APPROVAL");
        ps.setString(5, "{}");
        ps.execute();
      }
      // The channel is the database's, not the schema's: tests running beside this one in other
      // schemas notify on it too, so wait for this run's notification among theirs.
      java.util.List<String> seen = new java.util.ArrayList<>();
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (seen.stream().noneMatch(p -> p.contains("run-a")) && System.nanoTime() < deadline) {
        PGNotification[] got = listener.unwrap(PGConnection.class).getNotifications(1_000);
        for (PGNotification n : got == null ? new PGNotification[0] : got) {
          seen.add(n.getParameter());
        }
      }
      assertThat(seen).anyMatch(p -> p.contains("run-a"));
    } finally {
      listener.close();
    }
    assertThat(state("run-a")).isEqualTo("runnable");
    Claim woke = claim(worker, "w2", 60_000, token()).orElseThrow();
    assertThat(woke.nudges()).isEqualTo(c.nudges() + 1);
  }

  @Test
  void anItemThatArrivedSinceTheClaimKeepsTheRunRunnable() throws SQLException {
    submit("run-a");
    LeaseToken token = token();
    Claim c = claim(worker, "w1", 60_000, token).orElseThrow();
    assertThat(park("run-a", c.nudges() - 1, null, "w1", c, token)).isZero();
    assertThat(state("run-a")).isEqualTo("runnable");
  }

  @Test
  void aReachedWakeUpMakesAParkedRunClaimable() throws Exception {
    submit("run-a");
    LeaseToken token = token();
    Claim c = claim(worker, "w1", 60_000, token).orElseThrow();
    park("run-a", c.nudges(), System.currentTimeMillis() - 1, "w1", c, token);
    release("run-a", "w1", c, token);
    assertThat(claim(worker, "w2", 60_000, token())).isPresent();
  }

  @Test
  void parkingWithoutTheLeaseTokenAndWritingTheTableDirectlyAreRefused() throws SQLException {
    submit("run-a");
    Claim c = claim(worker, "w1", 60_000, token()).orElseThrow();
    SQLException wrongToken =
        catchThrowableOfType(
            SQLException.class, () -> park("run-a", c.nudges(), null, "w1", c, token()));
    assertThat(wrongToken.getSQLState()).isEqualTo("42501");
    SQLException direct =
        catchThrowableOfType(
            SQLException.class,
            () -> {
              try (Statement s = worker.createStatement()) {
                s.executeUpdate("UPDATE ratchet_schedule SET state = 'ended'");
              }
            });
    assertThat(direct.getSQLState()).isEqualTo("42501");
    assertThat(state("run-a")).isEqualTo("runnable");
  }
}
