package dev.ratchet.adapters;

import static dev.ratchet.adapters.Workspaces.fence;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.Verification;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Allowlisted argv only, with a timeout and output limits; the result is bound evidence. */
class CommandRunnerTest {
  @TempDir Path root;

  private final CommandRunner runner =
      CommandRunner.builder()
          .allow("pass", List.of("true"))
          .allow("fail", List.of("false"))
          .allow("chatty", List.of("seq", "1", "200000"))
          .allow("touch", List.of("touch", "created-by-command"))
          .allow("missing", List.of("/nonexistent/program"))
          .timeout(Duration.ofSeconds(20))
          .maxOutputBytes(1000)
          .build();

  @Test
  void onlyAllowlistedNamesRun() {
    assertThatThrownBy(() -> runner.run("rm", root))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION));
  }

  @Test
  void shellsAndLaunchersCannotBeAllowlisted() {
    for (List<String> argv :
        List.of(
            List.of("sh", "-c", "true"),
            List.of("/bin/bash", "-c", "true"),
            List.of("env", "sh"),
            List.of("xargs"),
            List.<String>of())) {
      assertThatThrownBy(() -> CommandRunner.builder().allow("x", argv))
          .isInstanceOfSatisfying(
              RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONTRACT));
    }
  }

  @Test
  void aHangingCommandIsKilledAtTheTimeout() {
    CommandRunner impatient =
        CommandRunner.builder()
            .allow("hang", List.of("sleep", "30"))
            .timeout(Duration.ofMillis(300))
            .build();
    CommandResult r = impatient.run("hang", root);
    assertThat(r.timedOut()).isTrue();
    assertThat(r.succeeded()).isFalse();
  }

  @Test
  void outputBeyondTheLimitIsDiscardedAndFlagged() {
    CommandResult r = runner.run("chatty", root);
    assertThat(r.succeeded()).isTrue();
    assertThat(r.stdout()).hasSize(1000).startsWith("1\n2\n3\n");
    assertThat(r.stdoutTruncated()).isTrue();
    assertThat(r.stderrTruncated()).isFalse();
  }

  @Test
  void aProgramThatCannotStartIsAFailedRun() {
    CommandResult r = runner.run("missing", root);
    assertThat(r.succeeded()).isFalse();
    assertThat(r.exitCode()).isEqualTo(127);
  }

  @Test
  void runCommandIsVerifierEvidenceBoundToTheRevisionItRanOn() {
    try (WorkspaceAdapter ws =
        Workspaces.builder(root, Workspaces.clock()).commands(runner).open()) {
      assertThat(ws.actionSpecs().stream().map(ActionSpec::kind)).contains("run_command");
      var before = ws.observe();
      Verification pass = ws.verify("run_command", cmd("pass"), JsonObject.EMPTY, fence(1));
      assertThat(pass.passed()).isTrue();
      assertThat(pass.revision()).isEqualTo(before.revision());
      assertThat(pass.stateFingerprint()).isEqualTo(before.stateFingerprint());
      assertThat(ws.verify("run_command", cmd("fail"), JsonObject.EMPTY, fence(1)).passed())
          .isFalse();
      Verification changed = ws.verify("run_command", cmd("touch"), JsonObject.EMPTY, fence(1));
      assertThat(changed.passed()).isFalse();
      assertThat(changed.detail().get("workspace_changed").orElseThrow().toString())
          .isEqualTo("true");
      assertThatThrownBy(() -> ws.verify("run_command", cmd("rm"), JsonObject.EMPTY, fence(1)))
          .isInstanceOfSatisfying(
              RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION));
    }
  }

  private static JsonObject cmd(String name) {
    return JsonObject.builder().put("command", name).build();
  }
}
