package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.ops.KeyConfig;
import dev.ratchet.seam.Seams;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17, D24, ADR 0061 on SQLite with real processes: {@code ratchet submit} signs a task with
 * the operator's own key and enqueues it; {@code ratchet worker} verifies the signature and runs
 * it. A task signed by an untrusted key, or edited after signing, is refused before any commit: no
 * run exists, its workspace is never prepared, and no worker claims it again.
 */
class SubmitCommandTest {
  @TempDir Path dir;

  @Test
  void aSubmittedTaskIsVerifiedAndRunByAWorker() throws Exception {
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve("ok"))).keys();
    Path key = c.operator("olga");
    Path task = c.exampleTask("t", null);

    ProcessCli.Result submit =
        c.run("submit", task.toString(), "--run-id", "s1", "--operator-key", key.toString());
    assertThat(submit.exit()).as(submit.all()).isZero();
    assertThat(submit.out()).contains("run s1 of task repair-greeting submitted by olga (key ");
    assertThat(c.cwd.resolve("ws-t")).as("the worker prepares it, not submit").doesNotExist();

    ProcessCli.Result again =
        c.run("submit", task.toString(), "--run-id", "s1", "--operator-key", key.toString());
    assertThat(again.exit()).isEqualTo(2);
    assertThat(again.err()).contains("run_id: run 's1' already exists or was submitted");

    ProcessCli.Result worker = c.run("worker", "--worker-id", "w1", "--poll", "100ms", "--once");
    assertThat(worker.exit()).as(worker.all()).isZero();
    assertThat(worker.err())
        .contains("worker w1: 1 slot, group commit off")
        .contains("worker w1 claimed run s1")
        .contains("run s1: ended")
        .contains("worker w1 released run s1");
    ProcessCli.Result status = c.run("status", "s1");
    assertThat(status.out()).as(status.all()).contains("completed");
  }

  @Test
  void severalTaskFilesInOneSubmitBecomeOneRunEachAndAWrongRunIdCountSubmitsNothing()
      throws Exception {
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve("many"))).keys();
    Path key = c.operator("olga");
    Path a = c.exampleTask("m1", null);
    Path b = c.exampleTask("m2", null);

    ProcessCli.Result wrong =
        c.run("submit", "" + a, "" + b, "--run-id", "x1", "--operator-key", "" + key);
    assertThat(wrong.exit()).as(wrong.all()).isEqualTo(2);
    assertThat(wrong.err()).contains("--run-id: given 1 times for 2 task files");

    ProcessCli.Result both =
        c.run(
            "submit",
            "" + a,
            "" + b,
            "--run-id",
            "m1",
            "--run-id",
            "m2",
            "--operator-key",
            "" + key);
    assertThat(both.exit()).as(both.all()).isZero();
    assertThat(both.out())
        .contains("run m1 of task repair-greeting submitted by olga")
        .contains("run m2 of task repair-greeting submitted by olga");

    ProcessCli.Result worker = c.run("worker", "--worker-id", "w1", "--poll", "100ms", "--once");
    assertThat(worker.exit()).as(worker.all()).isZero();
    assertThat(worker.err())
        .contains("run m1: ended")
        .contains("run m2: ended")
        .doesNotContain("claimed run x1");
  }

  @Test
  void aWaitingRunIsListedAsAwaitingApprovalAndACancelFreezesItWithNoResumeTyped()
      throws Exception {
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve("cancel"))).keys();
    Path key = c.operator("olga");
    Path task = c.exampleTask("c", "write_file");
    assertThat(c.run("submit", "" + task, "--run-id", "c1", "--operator-key", "" + key).exit())
        .isZero();
    ProcessCli.Result first = c.run("worker", "--worker-id", "w1", "--poll", "100ms", "--once");
    assertThat(first.err()).as(first.all()).contains("run c1: waiting (awaiting approval)");
    ProcessCli.Result waiting = c.run("status", "--waiting");
    assertThat(waiting.out()).as(waiting.all()).contains("c1").contains("awaiting_approval");

    ProcessCli.Result cancel = c.run("cancel", "c1", "--operator", "olga");
    assertThat(cancel.exit()).as(cancel.all()).isZero();
    // The cancel woke the parked run: the next worker pass claims and consumes it; a write is
    // pending, so the run freezes for a reviewer (ADR 0051).
    ProcessCli.Result second = c.run("worker", "--worker-id", "w2", "--poll", "100ms", "--once");
    assertThat(second.err()).as(second.all()).contains("worker w2 claimed run c1");
    ProcessCli.Result status = c.run("status", "c1");
    assertThat(status.out()).as(status.all()).contains("awaiting_review (cancel_requested)");
    assertThat(c.run("status", "--waiting").out()).contains("c1").contains("awaiting_review");
  }

  @Test
  void anUntrustedOrEditedSubmissionIsRefusedBeforeAnyCommit() throws Exception {
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve("forged"))).keys();
    Path key = c.operator("olga");
    // mallory's key pair exists, but no trust root holds her public key.
    Path mallory = c.cwd.resolve("mallory.key");
    KeyConfig.createIdentity(mallory, "mallory", Seams.secureEntropy());

    Path untrusted = c.exampleTask("u", null);
    ProcessCli.Result refusedHere =
        c.run("submit", untrusted.toString(), "--run-id", "u1", "--operator-key", "" + mallory);
    assertThat(refusedHere.exit()).as(refusedHere.all()).isEqualTo(2);
    assertThat(refusedHere.err()).contains("not trusted");
    ProcessCli.Result forced =
        c.run(
            "submit",
            untrusted.toString(),
            "--run-id",
            "u1",
            "--operator-key",
            mallory.toString(),
            "--force");
    assertThat(forced.exit()).as(forced.all()).isZero();

    Path edited = c.exampleTask("e", null);
    ProcessCli.Result signed =
        c.run("submit", edited.toString(), "--run-id", "e1", "--operator-key", key.toString());
    assertThat(signed.exit()).as(signed.all()).isZero();
    // Someone with write access to the store edits the signed task: the file the worker would
    // prepare and the plan it would follow.
    assertThat(
            sql(
                c.store(),
                "UPDATE ratchet_submissions SET envelope = replace(envelope,"
                    + " 'hello', 'HACKED') WHERE run_id = 'e1'"))
        .isEqualTo(1);

    ProcessCli.Result worker = c.run("worker", "--worker-id", "w1", "--poll", "100ms", "--once");
    assertThat(worker.exit()).as(worker.all()).isZero();
    assertThat(worker.err())
        .contains("run u1: refused, not started: APPROVAL")
        .contains("is not trusted")
        .contains("run e1: refused, not started: APPROVAL")
        .contains("does not verify");
    // Never started: no checkpoint, no workspace, and the rows are ended.
    assertThat(column(c.store(), "SELECT run_id FROM ratchet_marks")).isEmpty();
    assertThat(column(c.store(), "SELECT state FROM ratchet_schedule")).containsOnly("ended");
    assertThat(c.cwd.resolve("ws-u")).doesNotExist();
    assertThat(c.cwd.resolve("ws-e")).doesNotExist();
    ProcessCli.Result next = c.run("worker", "--worker-id", "w2", "--poll", "100ms", "--once");
    assertThat(next.err()).doesNotContain("claimed");
    // Issue 39: why, and what to do, is shown by status (list and one run) and inspect, not only
    // in the worker's log.
    ProcessCli.Result listed = c.run("status");
    assertThat(listed.exit()).as(listed.all()).isZero();
    assertThat(listed.out())
        .contains("ended_at_claim")
        .contains("u1: ended at claim, never started: APPROVAL")
        .contains("e1: ended at claim, never started: APPROVAL")
        .contains("fix the task and submit it again under a new run id");
    ProcessCli.Result one = c.run("status", "u1", "--json");
    assertThat(one.exit()).as(one.all()).isZero();
    assertThat(one.out())
        .contains("\"status\":\"ended_at_claim\"")
        .contains("\"reason\":\"ended at claim, never started: APPROVAL")
        .contains("\"reason_at_ms\":");
    ProcessCli.Result inspect = c.run("inspect", "e1");
    assertThat(inspect.exit()).as(inspect.all()).isZero();
    assertThat(inspect.out())
        .contains("run e1 of task")
        .contains("ended_at_claim, no checkpoint: ended at claim, never started: APPROVAL");
  }

  @Test
  void badInputIsRefusedWithExitTwoAndAMessageNamingTheField() throws Exception {
    MemoryHarness h = new MemoryHarness(dir, 41);
    assertThat(h.run("keys", "generate").exit()).isZero();
    String key = h.person("operator", "olga");
    Path task = h.taskFile("t.json", "", MemoryHarness.PLAN);

    MemoryHarness.Result missing = h.run("submit", "" + dir.resolve("nope.json"), "--key", key);
    assertThat(missing.exit()).isEqualTo(2);
    assertThat(missing.err()).contains("nope.json: not found");

    MemoryHarness.Result runId = h.run("submit", "" + task, "--run-id", "a b", "--key", key);
    assertThat(runId.exit()).isEqualTo(2);
    assertThat(runId.err()).contains("RUN_ID: 'a b' must be");

    MemoryHarness.Result noKey = h.run("submit", "" + task, "--run-id", "s1");
    assertThat(noKey.exit()).isEqualTo(2);
    assertThat(noKey.err()).contains("no signing key").contains("--operator NAME");

    Path badField = dir.resolve("bad.json");
    Files.writeString(
        badField,
        Files.readString(task).replace("\"task_id\": \"repair-greeting\"", "\"task_id\": 7"));
    MemoryHarness.Result field = h.run("submit", "" + badField, "--key", key);
    assertThat(field.exit()).isEqualTo(2);
    assertThat(field.err()).contains("task.task_id");

    // Any store that schedules takes a valid submission (D33): the in-memory one too, and the
    // envelope it keeps verifies as submitted. Nothing above was written.
    assertThat(h.store.submission("repair-greeting", "a b")).isEmpty();
    MemoryHarness.Result store = h.run("submit", "" + task, "--run-id", "s1", "--key", key);
    assertThat(store.exit()).as(store.err()).isZero();
    assertThat(store.out()).contains("run s1 of task repair-greeting submitted by");
    assertThat(h.store.submission("repair-greeting", "s1")).isPresent();
  }

  private static int sql(Path db, String statement) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        PreparedStatement ps = c.prepareStatement(statement)) {
      return ps.executeUpdate();
    }
  }

  private static List<String> column(Path db, String query) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        PreparedStatement ps = c.prepareStatement(query);
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }
}
