package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.json.Canonical;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC D29 with real processes: a real {@code ratchet run} on SQLite (bubblewrap present) whose
 * verifier command plants git control structures, then the paths that open the workspace — {@code
 * resume}, {@code approve}, {@code review show|decide}, a {@code ratchet worker} — and the
 * read-only views ({@code status}, {@code inspect}, {@code verify}, {@code trace}). Each planted
 * payload would write a marker outside the workspace and copy the checkpoint key; the marker never
 * appears. Each canary runs git the way the adapter did before D29 over the same workspace and
 * finds the marker, so the plant is live.
 */
class AgentWrittenGitProcessTest {
  private static final String APP = "print(1)\n";

  @TempDir Path dir;

  /** One home, one workspace, one payload. */
  private final class Fixture {
    final ProcessCli c = new ProcessCli(dir.resolve("cwd"));
    final Path ws = c.cwd.resolve("ws");
    final Path outside = dir.resolve("outside");
    final Path payload = ws.resolve("payload.sh");

    Fixture(boolean repository, String plant) throws IOException {
      Files.createDirectories(c.cwd);
      Files.createDirectories(outside);
      c.keys();
      Files.createDirectories(ws);
      Files.writeString(ws.resolve("app.py"), APP);
      Files.writeString(ws.resolve("plant.py"), plant);
      Files.writeString(
          payload,
          "#!/bin/sh\necho ran >> '"
              + outside.resolve("marker")
              + "'\ncp '"
              + c.home().resolve("keys/ckpt-1.key")
              + "' '"
              + outside.resolve("stolen")
              + "' 2>/dev/null\ncat\n");
      Files.setPosixFilePermissions(payload, PosixFilePermissions.fromString("rwxr-xr-x"));
      if (repository) {
        git(ws, "init", "-q", "-b", "main");
        git(ws, "add", "app.py", "plant.py");
        git(ws, "-c", "user.name=t", "-c", "user.email=t@x.invalid", "commit", "-q", "-m", "b");
      }
    }

    Path task(String runId) throws IOException {
      String text =
          """
          {
            "format": "ratchet-task/1",
            "task": {
              "schema_version": 1,
              "task_id": "%s",
              "task_version": "v1",
              "policy_id": "workspace-policy",
              "policy_version": "v1",
              "adapter": "workspace",
              "permissions": ["workspace.read", "workspace.write", "commands.run", "tests.run"],
              "action_kinds": ["read_file", "write_file", "run_command"],
              "targets": ["app.py", "plant"],
              "approval_required": ["write_file"],
              "budgets": {"max_proposals": 50, "max_steps": 20, "max_wall_time_ms": 86400000, "max_cost": 0},
              "environment": {
                "files": {"app.py": "print(1)\\n"},
                "commands": {"plant": ["/usr/bin/python3", "plant.py"]}
              },
              "verifier": {"expected_files": {"app.py": "print(2)\\n"}}
            },
            "connect": {"directory": "%s"},
            "plan": [
              {"id": "plant", "kind": "run_command", "arguments": {"command": "plant"}},
              {"id": "fix", "kind": "write_file",
               "arguments": {"path": "app.py", "content": "print(2)\\n", "expected_sha256": "%s"}},
              {"id": "done", "kind": "finish", "arguments": {}}
            ]
          }
          """
              .formatted(runId, ws, Canonical.sha256Hex(APP));
      Path f = c.cwd.resolve(runId + ".json");
      Files.writeString(f, text);
      return f;
    }

    void appendConfig(String text) throws IOException {
      Path config = ws.resolve(".git/config");
      Files.writeString(config, Files.readString(config) + text);
    }

    boolean markerAppeared() {
      return Files.exists(outside.resolve("marker")) || Files.exists(outside.resolve("stolen"));
    }

    /** Every read-only view, each of which must neither fail on the plant nor run it. */
    void views(String runId) {
      for (List<String> args :
          List.of(
              List.of("status", "--json"),
              List.of("inspect", runId, "--json"),
              List.of("verify", runId),
              List.of("trace", runId, "--json"))) {
        ProcessCli.Result r = c.run(args.toArray(new String[0]));
        assertThat(r.all()).as(String.join(" ", args)).doesNotContain("Exception");
      }
    }
  }

  private static final String PLANT_CONFIG =
      """
      import os
      for what, path in [("config", ".git/config"), ("hook", ".git/hooks/pre-commit"),
                         ("attributes", ".git/info/attributes")]:
          try:
              with open(path, "a") as f:
                  f.write("[core]\\n\\tfsmonitor = %s/payload.sh\\n" % os.getcwd())
              print(what, "planted")
          except OSError as e:
              print(what, "refused:", e.strerror)
      """;

  @Test
  void aRepositorysPlantedConfigurationNeverRunsOnAnyPath() throws IOException {
    Fixture f = new Fixture(true, PLANT_CONFIG);
    ProcessCli.Result run = f.c.run("run", f.task("g1").toString(), "--run-id", "g1");
    assertThat(run.exit()).as(run.all()).isEqualTo(4);
    assertThat(run.all()).contains("waiting for approval of write_file");
    String trace = f.c.run("trace", "g1", "--json").out();
    // The verifier's own attempts: .git is read-only inside its sandbox.
    assertThat(trace).contains("config refused: Read-only file system");
    assertThat(trace).contains("hook refused: Read-only file system");
    assertThat(trace).doesNotContain("config planted");

    // The same vectors planted from outside the sandbox (a hostile checkout, another tool).
    Files.writeString(f.ws.resolve("evil.cfg"), "[core]\n\tfsmonitor = " + f.payload + "\n");
    Files.writeString(f.ws.resolve(".gitattributes"), "*.py filter=x\n");
    f.appendConfig(
        "[core]\n\tfsmonitor = "
            + f.payload
            + "\n\thooksPath = "
            + f.ws
            + "\n\tpager = "
            + f.payload
            + "\n[filter \"x\"]\n\tclean = "
            + f.payload
            + "\n[include]\n\tpath = ../evil.cfg\n");
    Files.copy(f.payload, f.ws.resolve(".git/hooks/post-index-change"));

    ProcessCli.Result approve = f.c.run("approve", "g1", "--approver", "alice");
    ProcessCli.Result resume = f.c.run("resume", "g1");
    assertThat(resume.all()).as(approve.all()).doesNotContain("Exception");
    // The configuration changed under the run: drift, frozen for a reviewer.
    assertThat(resume.all()).contains("environment_drift");
    ProcessCli.Result show = f.c.run("review", "show", "g1");
    assertThat(show.exit()).as(show.all()).isZero();
    f.views("g1");
    ProcessCli.Result decide =
        f.c.run("review", "decide", "g1", "--decision", "abort", "--reviewer", "rita");
    assertThat(decide.exit()).as(decide.all()).isZero();
    f.c.run("resume", "g1");
    assertThat(f.markerAppeared()).isFalse();

    // A worker claiming a submitted run over the planted repository.
    f.c.operator("olga");
    Path task2 = f.task("g2");
    assertThat(f.c.run("submit", task2.toString(), "--run-id", "g2", "--operator", "olga").exit())
        .isZero();
    ProcessCli.Result worker = f.c.run("worker", "--once");
    assertThat(worker.all()).doesNotContain("Exception").contains("g2");
    assertThat(f.markerAppeared()).isFalse();

    gitAsBefore(f.ws, "status", "--porcelain=v1");
    assertThat(f.markerAppeared()).as("canary: the plant is live").isTrue();
  }

  @Test
  void theMcpServerOverAPlantedRepositoryRunsNothing() throws Exception {
    Fixture f = new Fixture(true, "print('nothing planted')\n");
    Files.writeString(f.ws.resolve(".gitattributes"), "*.py filter=x\n");
    f.appendConfig(
        "[core]\n\tfsmonitor = "
            + f.payload
            + "\n[filter \"x\"]\n\tclean = "
            + f.payload
            + "\n\trequired = true\n");
    try (McpClientProcess server =
        new McpClientProcess(
            List.of(
                "mcp",
                f.task("m1").toString(),
                "--run-id",
                "m1",
                "--home",
                f.c.home().toString()))) {
      var read = server.call("read_file", Map.of("path", "app.py"));
      assertThat(read.isError()).as(String.valueOf(read)).isFalse();
      assertThat(String.valueOf(read.structuredContent())).contains("print(1)");
    }
    assertThat(f.markerAppeared()).isFalse();
    gitAsBefore(f.ws, "status", "--porcelain=v1");
    assertThat(f.markerAppeared()).as("canary: the plant is live").isTrue();
  }

  private static final String CREATE_GIT =
      """
      import os
      os.mkdir(".git")
      with open(".git/config", "w") as f:
          f.write("[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = %s/payload.sh\\n"
                  % os.getcwd())
      os.mkdir(".git/objects"); os.mkdir(".git/refs")
      with open(".git/HEAD", "w") as f:
          f.write("ref: refs/heads/main\\n")
      print("created .git")
      """;

  @Test
  void aGitCreatedByAVerifierInAPlainWorkspaceIsDriftNeverASwitch() throws IOException {
    Fixture f = new Fixture(false, CREATE_GIT);
    ProcessCli.Result run = f.c.run("run", f.task("p1").toString(), "--run-id", "p1");
    assertThat(run.all()).doesNotContain("Exception");
    assertThat(f.ws.resolve(".git/config")).exists();
    String trace = f.c.run("trace", "p1", "--json").out();
    assertThat(trace).contains("created .git").contains(".git appeared");
    ProcessCli.Result resume = f.c.run("resume", "p1");
    assertThat(resume.all()).doesNotContain("Exception");
    f.c.run("review", "show", "p1");
    f.views("p1");
    assertThat(f.markerAppeared()).isFalse();

    gitAsBefore(f.ws, "status", "--porcelain=v1");
    assertThat(f.markerAppeared()).as("canary: the plant is live").isTrue();
  }

  @Test
  void aGitdirFileIntoTheHomeIsRefusedAsDriftAndNeverFollowed() throws IOException {
    Fixture f = new Fixture(true, "print('nothing planted')\n");
    ProcessCli.Result run = f.c.run("run", f.task("d1").toString(), "--run-id", "d1");
    assertThat(run.exit()).as(run.all()).isEqualTo(4);
    // A repository inside the Ratchet home whose configuration runs the payload.
    Path homeRepo = f.c.home().resolve("planted");
    Files.createDirectories(homeRepo);
    git(homeRepo, "init", "-q", "-b", "main");
    Files.writeString(
        homeRepo.resolve(".git/config"),
        Files.readString(homeRepo.resolve(".git/config"))
            + "[core]\n\tfsmonitor = "
            + f.payload
            + "\n\tworktree = "
            + f.ws
            + "\n");
    deleteTree(f.ws.resolve(".git"));
    Files.writeString(f.ws.resolve(".git"), "gitdir: " + homeRepo.resolve(".git") + "\n");

    ProcessCli.Result resume = f.c.run("resume", "d1");
    assertThat(resume.all()).doesNotContain("Exception").contains("environment_drift");
    f.c.run("review", "show", "d1");
    assertThat(f.c.run("trace", "d1", "--json").out())
        .contains("adapter_evidence")
        .contains("gitdir");
    f.views("d1");
    assertThat(f.markerAppeared()).isFalse();

    gitAsBefore(f.ws, "status", "--porcelain=v1");
    assertThat(f.markerAppeared()).as("canary: the redirect is live").isTrue();
  }

  private static void git(Path where, String... args) {
    List<String> argv = new ArrayList<>(List.of("git", "-C", where.toString()));
    argv.addAll(List.of(args));
    exec(argv, Map.of());
  }

  /** The pre-D29 invocation: git outside any sandbox, the repository's configuration obeyed. */
  private static void gitAsBefore(Path ws, String... args) {
    List<String> argv = new ArrayList<>(List.of("git", "-C", ws.toString()));
    argv.addAll(List.of(args));
    exec(argv, Map.of("GIT_OPTIONAL_LOCKS", "0", "LC_ALL", "C"));
  }

  private static void exec(List<String> argv, Map<String, String> env) {
    ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
    pb.environment().putAll(env);
    try {
      Process p = pb.start();
      p.getOutputStream().close();
      new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void deleteTree(Path p) throws IOException {
    try (var s = Files.walk(p)) {
      for (Path f : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
  }
}
