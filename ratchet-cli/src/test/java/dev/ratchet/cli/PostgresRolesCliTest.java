package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.testkit.LocalPostgresSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ratchet db init} and the D21 roles per command, on the local PostgreSQL service, as real
 * {@code ratchet} processes. After {@code db init} the owner user ({@code RATCHET_PG_USER}) is set
 * to a role that does not exist, so every later command works only because it connected as its
 * configured role user. Required when {@code CI=true}, skipped with a printed reason elsewhere.
 */
class PostgresRolesCliTest {
  @RegisterExtension final LocalPostgresSchema pg = new LocalPostgresSchema("life2_cli");

  @TempDir Path dir;

  @Test
  void dbInitThenEachCommandConnectsAsItsRoleAndTheInspectorCannotWrite() throws Exception {
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve("pg"))).keys();
    operator(c, "olga");
    c.env.put("RATCHET_PG_USER", LocalPostgresSchema.ADMIN);
    c.env.put("RATCHET_PG_SCHEMA", pg.schema());
    c.env.put("RATCHET_PG_WORKER_USER", "life2_worker");
    c.env.put("RATCHET_PG_OPERATOR_USER", "life2_operator");
    // The inspector's user comes from the home's file (environment > file, docs/cli.md).
    Files.writeString(
        c.home().resolve("ratchet.properties"), "pg.inspector-user=life2_inspector\n");
    String store = "--store=" + LocalPostgresSchema.URL;

    ProcessCli.Result sqlite = c.run("db", "init");
    assertThat(sqlite.exit()).as(sqlite.all()).isEqualTo(2);
    assertThat(sqlite.err()).contains("db init is for a PostgreSQL store");
    // A worker login never migrates: before db init there is no store for it.
    ProcessCli.Result early =
        c.run("run", c.exampleTask("t0", "write_file").toString(), store, "--run-id", "r0");
    assertThat(early.exit()).as(early.all()).isEqualTo(5);
    assertThat(early.all()).contains("not an initialised Ratchet store");

    ProcessCli.Result init = c.run("db", "init", store);
    assertThat(init.exit()).as(init.all()).isZero();
    assertThat(init.out())
        .contains("schema " + pg.schema() + ": migrated")
        .contains("life2_worker")
        .contains("granted the worker privileges")
        .contains("granted the operator privileges")
        .contains("granted the inspector privileges");
    ProcessCli.Result again = c.run("db", "init", store);
    assertThat(again.exit()).as(again.all()).isZero();
    assertThat(again.out()).contains("role life2_worker: granted").doesNotContain("created role");

    c.env.put("RATCHET_PG_USER", "life2_nobody"); // from here on, the owner user cannot connect
    Path task = c.exampleTask("t", "write_file");
    ProcessCli.Result run = c.run("run", task.toString(), store, "--run-id", "r1");
    assertThat(run.exit()).as(run.all()).isEqualTo(4);
    assertThat(run.all()).contains("waiting for approval");

    ProcessCli.Result approve = c.run("approve", "r1", store, "--approver", "alice");
    assertThat(approve.exit()).as(approve.all()).isZero();
    assertThat(inbox("r1")).as("delivered through ratchet_deliver").isEqualTo(1);
    ProcessCli.Result resume = c.run("resume", "r1", store);
    assertThat(resume.exit()).as(resume.all()).isZero();
    // Issue 39: the resume's row call (ratchet_claim_held, version 20) is granted to the worker.
    assertThat(resume.all()).doesNotContain("scheduling row of run r1 not updated");

    Path second = c.exampleTask("t2", "write_file");
    ProcessCli.Result run2 = c.run("run", second.toString(), store, "--run-id", "r2");
    assertThat(run2.exit()).as(run2.all()).isEqualTo(4);
    ProcessCli.Result cancel = c.run("cancel", "r2", store, "--operator", "olga");
    assertThat(cancel.exit()).as(cancel.all()).isZero();
    assertThat(inbox("r2")).isEqualTo(1);

    ProcessCli.Result status = c.run("status", "r1", store, "--json");
    assertThat(status.exit()).as(status.all()).isZero();
    assertThat(status.out()).contains("\"run_id\":\"r1\"");

    // A write attempted as the inspector: refused by the database, nothing delivered.
    c.env.put("RATCHET_PG_OPERATOR_USER", "life2_inspector");
    ProcessCli.Result refused = c.run("approve", "r2", store, "--approver", "alice");
    assertThat(refused.exit()).as(refused.all()).isEqualTo(5);
    assertThat(inbox("r2")).isEqualTo(1);
  }

  @Test
  void anOperatorSubmitsThroughRatchetSubmitAndAWorkerRoleRunsIt() throws Exception {
    ProcessCli c = roleCli("submit");
    Path key = c.home().resolve("identities/operator/olga.key");
    String store = "--store=" + LocalPostgresSchema.URL;
    ProcessCli.Result init = c.run("db", "init", store);
    assertThat(init.exit()).as(init.all()).isZero();
    c.env.put("RATCHET_PG_USER", "life2_nobody"); // only the role users can connect from here

    Path task = c.exampleTask("s", null);
    ProcessCli.Result submit =
        c.run("submit", "" + task, store, "--run-id", "s1", "--operator-key", "" + key);
    assertThat(submit.exit()).as(submit.all()).isZero();
    assertThat(submit.out()).contains("run s1 of task repair-greeting submitted by olga");
    // Issue 39: visible from submission on, before any worker runs (read as the inspector).
    ProcessCli.Result listed = c.run("status", store);
    assertThat(listed.exit()).as(listed.all()).isZero();
    assertThat(listed.out()).contains("s1").contains("submitted").contains("not started yet");
    ProcessCli.Result one = c.run("status", "s1", store, "--json");
    assertThat(one.exit()).as(one.all()).isZero();
    assertThat(one.out()).contains("\"status\":\"submitted\"").contains("\"started\":false");

    ProcessCli.Result worker =
        c.run("worker", store, "--worker-id", "w1", "--poll", "100ms", "--once");
    assertThat(worker.exit()).as(worker.all()).isZero();
    assertThat(worker.err()).contains("worker w1 claimed run s1").contains("run s1: ended");
    ProcessCli.Result status = c.run("status", "s1", store);
    assertThat(status.out()).as(status.all()).contains("completed");

    // The worker role cannot submit: ratchet_submit is the operator's.
    c.env.put("RATCHET_PG_OPERATOR_USER", "life2_worker");
    ProcessCli.Result asWorker =
        c.run("submit", "" + task, store, "--run-id", "s2", "--operator-key", "" + key);
    assertThat(asWorker.exit()).as(asWorker.all()).isEqualTo(5);
  }

  @Test
  void anIdleWorkerIsWokenByASubmitAndByAnApprovalLongBeforeItsPollInterval() throws Exception {
    ProcessCli c = roleCli("notify");
    Path key = c.home().resolve("identities/operator/olga.key");
    String store = "--store=" + LocalPostgresSchema.URL;
    assertThat(c.run("db", "init", store).exit()).isZero();

    // Polls every 30 s: only a notification can wake it within the 10 s allowed below.
    ProcessCli.Started worker =
        c.start("worker", store, "--worker-id", "w1", "--poll", "30s", "--lease-ttl", "5s");
    try {
      awaitStderr(worker, "listening for runnable runs", 60);
      Thread.sleep(1_000); // its first claim found nothing: it is idle now
      Path task = c.exampleTask("n", "write_file");
      ProcessCli.Result submit =
          c.run("submit", "" + task, store, "--run-id", "n1", "--operator-key", "" + key);
      assertThat(submit.exit()).as(submit.all()).isZero();
      long woken = awaitStderr(worker, "run n1: waiting (awaiting approval)", 10);
      assertThat(woken).as("ms from submit to the run waiting").isLessThan(10_000);

      ProcessCli.Result approve = c.run("approve", "n1", store, "--approver", "alice");
      assertThat(approve.exit()).as(approve.all()).isZero();
      long ended = awaitStderr(worker, "run n1: ended", 10);
      assertThat(ended).as("ms from approve to the run ending").isLessThan(10_000);
    } finally {
      worker.process().destroy(); // SIGTERM: drains
      worker.process().waitFor(60, java.util.concurrent.TimeUnit.SECONDS);
    }
    assertThat(worker.process().exitValue()).as(worker.stderr()).isZero();
    assertThat(c.run("status", "n1", store).out()).contains("completed");
  }

  /**
   * Issue 39: trust roots are live. An approver whose key is trusted with {@code keys trust} after
   * the worker started signs an approval; the running worker reloads its trust roots before the
   * claim the delivery wakes, consumes the approval and finishes the run — no restart.
   */
  @Test
  void anApproverTrustedAfterTheWorkerStartedIsHonouredWithoutARestart() throws Exception {
    ProcessCli c = roleCli("live");
    Path key = c.home().resolve("identities/operator/olga.key");
    String store = "--store=" + LocalPostgresSchema.URL;
    assertThat(c.run("db", "init", store).exit()).isZero();
    ProcessCli.Started worker =
        c.start("worker", store, "--worker-id", "w1", "--poll", "200ms", "--lease-ttl", "5s");
    try {
      awaitStderr(worker, "listening for runnable runs", 60);
      Path task = c.exampleTask("live", "write_file");
      assertThat(
              c.run("submit", "" + task, store, "--run-id", "t1", "--operator-key", "" + key)
                  .exit())
          .isZero();
      awaitStderr(worker, "run t1: waiting (awaiting approval)", 30);

      // Carol's key is made and trusted only now, after the worker loaded its trust roots.
      ProcessCli.Result made = c.run("keys", "generate", "--role", "approver", "--name", "carol");
      assertThat(made.exit()).as(made.all()).isZero();
      ProcessCli.Result trusted =
          c.run(
              "keys",
              "trust",
              "--role",
              "approver",
              c.home().resolve("identities/approver/carol.pub").toString());
      assertThat(trusted.exit()).as(trusted.all()).isZero();
      ProcessCli.Result approve = c.run("approve", "t1", store, "--approver", "carol");
      assertThat(approve.exit()).as(approve.all()).isZero();

      awaitStderr(worker, "trust roots changed, reloaded", 30);
      awaitStderr(worker, "run t1: ended", 30);
      assertThat(worker.stderr()).doesNotContain("untrusted_signer");
    } finally {
      worker.process().destroy();
      worker.process().waitFor(60, java.util.concurrent.TimeUnit.SECONDS);
    }
    assertThat(c.run("status", "t1", store).out()).contains("completed");
  }

  /**
   * Issue 39: a decision refused only because its signer was not yet trusted is judged again once
   * the key is trusted, with no {@code resume}. A run frozen by a cancel gets an abort signed by a
   * reviewer no trust root holds yet; the running worker refuses it and parks the run. {@code keys
   * trust} then wakes the waiting runs (and the worker, reloading its trust roots, wakes them too):
   * the worker applies the abort and the run ends.
   */
  @Test
  void aDecisionRefusedBeforeItsSignerWasTrustedIsAppliedOnceTheKeyIsTrusted() throws Exception {
    ProcessCli c = roleCli("wake");
    Path key = c.home().resolve("identities/operator/olga.key");
    String store = "--store=" + LocalPostgresSchema.URL;
    assertThat(c.run("db", "init", store).exit()).isZero();
    ProcessCli.Started worker =
        c.start("worker", store, "--worker-id", "w1", "--poll", "200ms", "--lease-ttl", "5s");
    try {
      awaitStderr(worker, "listening for runnable runs", 60);
      Path task = c.exampleTask("wake", "write_file");
      assertThat(
              c.run("submit", "" + task, store, "--run-id", "k1", "--operator-key", "" + key)
                  .exit())
          .isZero();
      awaitStderr(worker, "run k1: waiting (awaiting approval)", 30);
      ProcessCli.Result cancel =
          c.run("cancel", "k1", store, "--operator", "olga", "--reason", "wrong ticket");
      assertThat(cancel.exit()).as(cancel.all()).isZero();
      awaitStderr(worker, "cancel_requested", 30);

      // Rex's key exists but no trust root holds it yet: his abort is refused, the run parks.
      assertThat(c.run("keys", "generate", "--role", "reviewer", "--name", "rex").exit()).isZero();
      ProcessCli.Result decide =
          c.run("review", "decide", "k1", store, "--decision", "abort", "--reviewer", "rex");
      assertThat(decide.exit()).as(decide.all()).isZero();
      awaitOutput(c, "untrusted_signer", 30, "inspect", "k1", store);
      int parked = worker.stderr().length();
      Thread.sleep(1_000);
      assertThat(worker.stderr().substring(parked))
          .as("parked: nothing moves the run while the signer is untrusted")
          .doesNotContain("claimed run k1");
      ProcessCli.Result frozen = c.run("status", "k1", store);
      assertThat(frozen.out()).as(frozen.all()).doesNotContain("failed");
      // Issue 39: said as refused, by the worker and by status, never as waiting to be consumed.
      assertThat(worker.stderr())
          .contains("run k1: refused an inbox item: no valid reviewer decision")
          .contains("untrusted_signer");
      assertThat(frozen.out())
          .contains("a reviewer decision in the inbox was refused by a worker (untrusted_signer")
          .doesNotContain("a worker consumes it");

      ProcessCli.Result trusted =
          c.run(
              "keys",
              "trust",
              "--role",
              "reviewer",
              store,
              c.home().resolve("identities/reviewer/rex.pub").toString());
      assertThat(trusted.exit()).as(trusted.all()).isZero();
      assertThat(trusted.out()).contains("trusted reviewer key").contains("woke ");
      awaitStderr(worker, "waiting run(s) after a trust change", 30);
      awaitStderr(worker, "run k1: ended", 30);
    } finally {
      worker.process().destroy();
      worker.process().waitFor(60, java.util.concurrent.TimeUnit.SECONDS);
    }
    ProcessCli.Result status = c.run("status", "k1", store);
    assertThat(status.out()).as(status.all()).contains("failed").contains("cancel_reviewed");
  }

  /**
   * A command line in {@code dir/sub} with the test keys, operator olga's key pair, and the role
   * users in the environment (the admin as the owner, until a test takes it away).
   */
  private ProcessCli roleCli(String sub) throws java.io.IOException {
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve(sub))).keys();
    c.operator("olga");
    c.env.put("RATCHET_PG_USER", LocalPostgresSchema.ADMIN);
    c.env.put("RATCHET_PG_SCHEMA", pg.schema());
    c.env.put("RATCHET_PG_WORKER_USER", "life2_worker");
    c.env.put("RATCHET_PG_OPERATOR_USER", "life2_operator");
    c.env.put("RATCHET_PG_INSPECTOR_USER", "life2_inspector");
    return c;
  }

  /** Runs {@code args} until its output holds {@code text}, for up to {@code seconds}. */
  private static void awaitOutput(ProcessCli c, String text, int seconds, String... args)
      throws Exception {
    long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(seconds);
    ProcessCli.Result last;
    do {
      last = c.run(args);
      if (last.all().contains(text)) {
        return;
      }
      Thread.sleep(200);
    } while (System.nanoTime() < until);
    throw new AssertionError("no '" + text + "' within " + seconds + " s:\n" + last.all());
  }

  /** Waits up to {@code seconds} for {@code text} on the worker's stderr; returns the ms waited. */
  private static long awaitStderr(ProcessCli.Started p, String text, int seconds) throws Exception {
    long start = System.nanoTime();
    long until = start + java.util.concurrent.TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < until) {
      if (p.stderr().contains(text)) {
        return (System.nanoTime() - start) / 1_000_000;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no '" + text + "' within " + seconds + " s:\n" + p.stderr());
  }

  private static void operator(ProcessCli c, String name) {
    dev.ratchet.seam.Entropy entropy = dev.ratchet.seam.Seams.secureEntropy();
    Path priv = c.home().resolve("identities/operator/" + name + ".key");
    dev.ratchet.ops.KeyConfig.install(
        c.home().resolve("operators"),
        dev.ratchet.ops.KeyConfig.createIdentity(priv, name, entropy).trusted());
  }

  private int inbox(String run) throws SQLException {
    try (Connection c =
            DriverManager.getConnection(LocalPostgresSchema.URL, LocalPostgresSchema.ADMIN, null);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM "
                    + pg.schema()
                    + ".ratchet_inbox WHERE run_id = '"
                    + run
                    + "'")) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
