package dev.ratchet.adapters;

import static dev.ratchet.adapters.Workspaces.fence;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ratchet.adapter.Verification;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC D27: commands run in a bubblewrap sandbox that cannot reach the worker's environment, its
 * privileges, files outside the workspace, the adapter's control directory or the network; without
 * a working bubblewrap they are refused unless the operator opted out by name.
 */
class CommandSandboxTest {
  @TempDir Path root;
  @TempDir Path outside;

  private static CommandRunner runner(CommandSandbox sandbox, String name, String... argv) {
    return CommandRunner.builder()
        .allow(name, List.of(argv))
        .timeout(Duration.ofSeconds(30))
        .sandbox(sandbox)
        .build();
  }

  private static CommandResult sandboxed(Path dir, String... argv) {
    return runner(CommandSandbox.required(), "c", argv).run("c", dir);
  }

  @Test
  void theEnvironmentIsOnlyTheAllowlist() {
    CommandRunner r =
        CommandRunner.builder()
            .allow("env", List.of("printenv"))
            .environment("TERM", "dumb")
            .build();
    CommandResult out = r.run("env", root);
    assertThat(out.succeeded()).as(out.stderr()).isTrue();
    assertThat(out.sandbox()).isEqualTo(CommandSandbox.BUBBLEWRAP);
    Set<String> names = new TreeSet<>();
    out.stdout().lines().forEach(l -> names.add(l.substring(0, l.indexOf('='))));
    assertThat(names).containsExactlyInAnyOrder("PATH", "LANG", "HOME", "TMPDIR", "TERM", "PWD");
    assertThat(out.stdout())
        .contains("HOME=/tmp\n")
        .contains("PWD=" + root.toAbsolutePath() + "\n");
  }

  @Test
  void commandsRunAsNobodyWithoutAnyCapability() {
    CommandResult id = sandboxed(root, "id", "-u");
    assertThat(id.stdout().strip()).as(id.stderr()).isEqualTo("65534");
    CommandResult caps = sandboxed(root, "grep", "^Cap", "/proc/self/status");
    assertThat(caps.stdout().lines())
        .as(caps.stderr())
        .hasSize(5)
        .allSatisfy(l -> assertThat(l).endsWith("0000000000000000"));
  }

  @Test
  void nothingOutsideTheWorkspaceIsVisible() throws IOException {
    Path secret = Files.writeString(outside.resolve("secret.key"), "hex:00\n");
    CommandResult cat = sandboxed(root, "cat", secret.toString());
    assertThat(cat.exitCode()).isNotZero();
    assertThat(cat.stdout()).isEmpty();
    CommandResult etc = sandboxed(root, "ls", "/etc");
    assertThat(etc.stdout()).doesNotContain("shadow");
    CommandResult top = sandboxed(root, "ls", "/");
    assertThat(top.stdout().lines()).doesNotContain("root", "home", "work", "var", "opt");
  }

  @Test
  void theWorkspaceIsWritableAndHiddenPathsAreEmptyAndReadOnly() throws IOException {
    Path home = Files.createDirectories(root.resolve(".ratchet/keys"));
    Files.writeString(home.resolve("ckpt-1.key"), "hex:00\n");
    CommandRunner r =
        CommandRunner.builder()
            .allow("list", List.of("ls", "-A", ".ratchet"))
            .allow("plant", List.of("touch", ".ratchet/planted"))
            .allow("write", List.of("touch", "made-here"))
            .sandbox(CommandSandbox.required().hiding(root.resolve(".ratchet")))
            .build();
    assertThat(r.run("list", root).stdout()).isEmpty();
    assertThat(r.run("plant", root).exitCode()).isNotZero();
    assertThat(root.resolve(".ratchet/planted")).doesNotExist();
    assertThat(r.run("write", root).succeeded()).isTrue();
    assertThat(root.resolve("made-here")).exists();
  }

  @Test
  void theAdaptersControlDirectoryIsNotVisibleToCommands() {
    CommandRunner r =
        CommandRunner.builder()
            .allow("peek", List.of("ls", "-A", WorkspaceAdapter.CONTROL_DIR))
            .allow("poison", List.of("touch", WorkspaceAdapter.CONTROL_DIR + "/lock2"))
            .build();
    try (WorkspaceAdapter ws = Workspaces.builder(root, Workspaces.clock()).commands(r).open()) {
      assertThat(Files.exists(root.resolve(WorkspaceAdapter.CONTROL_DIR + "/receipts.db")))
          .isTrue();
      Verification peek = ws.verify("run_command", cmd("peek"), JsonObject.EMPTY, fence(1));
      assertThat(peek.passed()).isTrue();
      assertThat(text(peek, "stdout")).isEmpty();
      assertThat(text(peek, "sandbox")).isEqualTo(CommandSandbox.BUBBLEWRAP);
      Verification poison = ws.verify("run_command", cmd("poison"), JsonObject.EMPTY, fence(1));
      assertThat(poison.passed()).isFalse();
      assertThat(root.resolve(WorkspaceAdapter.CONTROL_DIR + "/lock2")).doesNotExist();
    }
  }

  @Test
  void theNetworkIsUnsharedUnlessAllowed() throws IOException {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/python3")), "python3 is not installed");
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      String connect =
          "import socket; socket.create_connection(('127.0.0.1', "
              + server.getLocalPort()
              + "), 5)";
      CommandResult off =
          runner(CommandSandbox.required(), "net", "/usr/bin/python3", "-c", connect)
              .run("net", root);
      assertThat(off.exitCode()).as(off.stderr()).isNotZero();
      assertThat(off.stderr()).contains("Connection refused");
      CommandResult on =
          runner(
                  CommandSandbox.required().withNetwork(true),
                  "net",
                  "/usr/bin/python3",
                  "-c",
                  connect)
              .run("net", root);
      assertThat(on.exitCode()).as(on.stderr()).isZero();
    }
  }

  @Test
  void aMissingOrBrokenBubblewrapRefusesCommandsNamingTheOptOut() throws IOException {
    Path broken = Files.writeString(outside.resolve("bwrap"), "not a program\n");
    for (Path bwrap : List.of(outside.resolve("absent/bwrap"), broken, Path.of("/usr/bin/false"))) {
      CommandRunner r = runner(CommandSandbox.required().withBubblewrap(bwrap), "c", "true");
      assertThatThrownBy(() -> r.run("c", root))
          .isInstanceOfSatisfying(
              RatchetException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION);
                assertThat(e.getMessage())
                    .contains("bubblewrap")
                    .contains(CommandSandbox.OPT_OUT_VARIABLE + "=" + CommandSandbox.OPT_OUT_VALUE);
              });
    }
  }

  @Test
  void theOptOutRunsCommandsUnsandboxedAndSaysSo() {
    CommandResult r =
        runner(
                CommandSandbox.unsandboxed().withBubblewrap(outside.resolve("absent")),
                "c",
                "id",
                "-u")
            .run("c", root);
    assertThat(r.succeeded()).isTrue();
    assertThat(r.sandbox()).isEqualTo(CommandSandbox.NONE);
    assertThat(r.toJson().get("sandbox").orElseThrow()).isEqualTo(new JsonString("none"));
  }

  @Test
  void theOptOutIsReadFromItsNamedVariableOnly() {
    assertThat(CommandSandbox.fromEnvironment(Map.of()).sandboxed()).isTrue();
    assertThat(
            CommandSandbox.fromEnvironment(Map.of(CommandSandbox.OPT_OUT_VARIABLE, "i-understand"))
                .sandboxed())
        .isFalse();
    assertThatThrownBy(
            () -> CommandSandbox.fromEnvironment(Map.of(CommandSandbox.OPT_OUT_VARIABLE, "yes")))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONTRACT));
  }

  private static String text(Verification v, String field) {
    return ((JsonString) v.detail().get(field).orElseThrow()).value();
  }

  private static JsonObject cmd(String name) {
    return JsonObject.builder().put("command", name).build();
  }
}
