package dev.ratchet.adapters;

import static dev.ratchet.adapters.Workspaces.fence;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.adapter.Verification;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC D29, item 2: inside a command's sandbox the repository's {@code .git} is read-only, so an
 * agent's command cannot plant configuration, hooks or attributes there; a {@code .git} a command
 * creates in a plain workspace is drift named in the command's evidence, and the check fails.
 */
class ControlStructuresReadOnlyTest {
  @TempDir Path root;

  private static JsonObject cmd(String name) {
    return JsonObject.builder().put("command", new JsonString(name)).build();
  }

  private static CommandRunner runner(String name, String... argv) {
    return CommandRunner.builder()
        .allow(name, List.of(argv))
        .timeout(Duration.ofSeconds(30))
        .build();
  }

  @Test
  void aCommandCannotWriteIntoGit() throws Exception {
    Workspaces.put(root, "app.py", "print(1)\n");
    Workspaces.git(root, "init", "-q", "-b", "main");
    String before = Files.readString(root.resolve(".git/config"));
    Workspaces.put(root, "evil.cfg", "[core]\n\tfsmonitor = /tmp/x\n");
    CommandRunner r =
        CommandRunner.builder()
            .allow("config", List.of("cp", "evil.cfg", ".git/config"))
            .allow("hook", List.of("touch", ".git/hooks/pre-commit"))
            .timeout(Duration.ofSeconds(30))
            .build();
    try (WorkspaceAdapter ws = Workspaces.builder(root, Workspaces.clock()).commands(r).open()) {
      for (String c : List.of("config", "hook")) {
        Verification v = ws.verify("run_command", cmd(c), JsonObject.EMPTY, fence(1));
        assertThat(v.passed()).isFalse();
        assertThat(v.detail().get("stderr").orElseThrow().toString())
            .contains("Read-only file system");
      }
      assertThat(ws.driftEvidence()).isEmpty();
    }
    assertThat(Files.readString(root.resolve(".git/config"))).isEqualTo(before);
    assertThat(root.resolve(".git/hooks/pre-commit")).doesNotExist();
  }

  @Test
  void aGitCreatedByACommandInAPlainWorkspaceIsDriftInItsEvidence() throws Exception {
    Workspaces.put(root, "app.py", "print(1)\n");
    CommandRunner r = runner("init", "mkdir", ".git");
    try (WorkspaceAdapter ws = Workspaces.builder(root, Workspaces.clock()).commands(r).open()) {
      Verification v = ws.verify("run_command", cmd("init"), JsonObject.EMPTY, fence(1));
      assertThat(v.passed()).isFalse();
      assertThat(v.detail().get("control_drift").orElseThrow().toString())
          .contains(".git appeared");
      assertThat(ws.gitState()).isEmpty();
      assertThat(ws.driftEvidence()).isPresent();
    }
  }
}
