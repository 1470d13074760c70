package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.json.Canonical;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39, "no loop without an exit": a plan's write whose {@code expected_sha256} is not the
 * file's content is refused by the workspace adapter at execute. The runtime withdraws the intent
 * (nothing took effect), the plan driver re-observes once and, refused again, ends the run {@code
 * failed} with the reason (ADR 0050) — instead of the same refusal on every {@code resume}. A task
 * whose plan contradicts its own {@code environment.files} is refused before anything is created,
 * and so is a workspace directory an earlier run already wrote to (exit 2, as task-format.md says).
 */
class NoStuckRunTest {
  @TempDir Path dir;

  /**
   * A task that writes {@code path} in {@code ws} with {@code expected} as its precondition (null:
   * none); also used by {@link PostgresStuckRunTest}.
   */
  static Path task(ProcessCli c, Path ws, String path, String expected) throws IOException {
    String text =
        """
        {
          "format": "ratchet-task/1",
          "task": {
            "schema_version": 1, "task_id": "stale", "task_version": "v1",
            "policy_id": "workspace-policy", "policy_version": "v1", "adapter": "workspace",
            "permissions": ["workspace.read", "workspace.write"],
            "action_kinds": ["read_file", "write_file"],
            "targets": ["app.py", "notes.txt"],
            "approval_required": [],
            "budgets": {"max_proposals": 50, "max_steps": 20, "max_wall_time_ms": 86400000, "max_cost": 0},
            "environment": {"files": {"app.py": "print(1)\\n"}},
            "verifier": {"expected_files": {"notes.txt": "new\\n"}}
          },
          "connect": {"directory": "%s"},
          "plan": [
            {"id": "fix", "kind": "write_file",
             "arguments": {"path": "%s", "content": "new\\n"%s}},
            {"id": "done", "kind": "finish", "arguments": {}}
          ]
        }
        """
            .formatted(
                ws,
                path,
                expected == null
                    ? ", \"expected_sha256\": null"
                    : ", \"expected_sha256\": \"" + expected + "\"");
    Path f = c.cwd.resolve("stale.json");
    Files.writeString(f, text);
    return f;
  }

  @Test
  void aWriteWhosePreconditionNeverHoldsEndsTheRunFailedInsteadOfLooping() throws IOException {
    ProcessCli c = new ProcessCli(dir.resolve("cwd"));
    Files.createDirectories(c.cwd);
    c.keys();
    Path ws = c.cwd.resolve("ws");
    Files.createDirectories(ws);
    Files.writeString(ws.resolve("app.py"), "print(1)\n");
    Files.writeString(ws.resolve("notes.txt"), "actual\n");
    Path t = task(c, ws, "notes.txt", Canonical.sha256Hex("what the task author believed\n"));

    ProcessCli.Result run = c.run("run", t.toString(), "--run-id", "s1");
    assertThat(run.exit()).as(run.all()).isEqualTo(3);
    assertThat(run.err()).contains("run s1 failed (refused_stale_observation)");
    assertThat(Files.readString(ws.resolve("notes.txt"))).isEqualTo("actual\n");

    ProcessCli.Result again = c.run("resume", "s1");
    assertThat(again.exit()).as(again.all()).isNotZero();
    assertThat(c.run("status", "s1").out()).contains("failed");
    String trace = c.run("trace", "s1", "--json").out();
    assertThat(trace).contains("refused_by_adapter").contains("permanently_refused");
  }

  @Test
  void aPlanThatContradictsItsOwnFilesIsRefusedBeforeAnythingIsCreated() throws IOException {
    ProcessCli c = new ProcessCli(dir.resolve("cwd2"));
    Files.createDirectories(c.cwd);
    c.keys();
    Path ws = c.cwd.resolve("ws");
    Path t = task(c, ws, "app.py", Canonical.sha256Hex("not print(1)\n"));
    ProcessCli.Result run = c.run("run", t.toString(), "--run-id", "s2");
    assertThat(run.exit()).as(run.all()).isEqualTo(2);
    assertThat(run.err()).contains("plan[0].arguments.expected_sha256");
    assertThat(ws).doesNotExist();
  }

  @Test
  void aSubmittedPlanThatContradictsItsOwnFilesIsRefusedAndNothingIsQueued() throws IOException {
    ProcessCli c = new ProcessCli(dir.resolve("cwd4"));
    Files.createDirectories(c.cwd);
    c.keys();
    Path key = c.operator("olga");
    Path ws = c.cwd.resolve("ws");
    Path t = task(c, ws, "app.py", Canonical.sha256Hex("not print(1)\n"));
    ProcessCli.Result submit =
        c.run("submit", t.toString(), "--run-id", "s4", "--operator-key", key.toString());
    assertThat(submit.exit()).as(submit.all()).isEqualTo(2);
    assertThat(submit.err()).contains("plan[0].arguments.expected_sha256");
    assertThat(c.run("status", "s4").exit()).as("nothing submitted").isNotZero();
    assertThat(ws).doesNotExist();
  }

  @Test
  void aWorkspaceAnEarlierRunWroteToIsRefusedWithExitTwo() throws IOException {
    ProcessCli c = new ProcessCli(dir.resolve("cwd3"));
    Files.createDirectories(c.cwd);
    c.keys();
    Path ws = c.cwd.resolve("ws");
    Path t = task(c, ws, "notes.txt", null);
    ProcessCli.Result first = c.run("run", t.toString(), "--run-id", "u1");
    // Its write went out (whatever became of the run after it).
    assertThat(first.out()).as(first.all()).contains("write_file fix#1: executed");
    ProcessCli.Result second = c.run("run", t.toString(), "--run-id", "u2");
    assertThat(second.exit()).as(second.all()).isEqualTo(2);
    assertThat(second.err()).contains("connect.directory").contains("already used by a run");
    assertThat(c.run("status", "u2").exit()).isNotZero();
  }
}
