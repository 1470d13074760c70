package dev.ratchet.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.adapter.Observation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC D29: what an agent can write into a workspace repository is never obeyed outside the
 * sandbox. Each test plants one vector whose payload, if git ever ran it, would write a marker and
 * copy a "key" into a directory outside the workspace; then the adapter observes (the path every
 * surface takes). The marker never appears. Each canary runs git the way the adapter did before D29
 * ({@code git -C ws status} with the worker's environment) over the same workspace and finds the
 * marker, so the plant is live and the test can fail.
 */
class AgentWrittenGitTest {
  @TempDir Path root;
  @TempDir Path outside;
  Path payload;

  @BeforeEach
  void repository() throws IOException {
    Files.writeString(outside.resolve("secret.key"), "hex:" + "ab".repeat(32));
    Workspaces.put(root, "app.py", "print(1)\n");
    Workspaces.put(root, "notes.txt", "v1\n");
    Workspaces.git(root, "init", "-q", "-b", "main");
    Workspaces.git(root, "add", "-A");
    Workspaces.git(root, "commit", "-q", "-m", "base");
    payload = script(root.resolve("payload.sh"));
  }

  /** A script that, wherever it runs, writes the marker and steals the key, then acts as `cat`. */
  private Path script(Path where) throws IOException {
    Path marker = outside.resolve("marker");
    Files.writeString(
        where,
        "#!/bin/sh\n"
            + "echo ran >> '"
            + marker
            + "'\n"
            + "cp '"
            + outside.resolve("secret.key")
            + "' '"
            + outside.resolve("stolen")
            + "' 2>/dev/null\n"
            + "cat\n",
        StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(where, PosixFilePermissions.fromString("rwxr-xr-x"));
    return where;
  }

  private void appendConfig(Path repo, String text) throws IOException {
    Files.writeString(
        repo.resolve(".git/config"),
        Files.readString(repo.resolve(".git/config")) + text,
        StandardCharsets.UTF_8);
  }

  private boolean markerAppeared() {
    return Files.exists(outside.resolve("marker")) || Files.exists(outside.resolve("stolen"));
  }

  private Observation observeThroughTheAdapter(Path ws) {
    try (WorkspaceAdapter a = Workspaces.builder(ws, Workspaces.clock()).open()) {
      Observation o = a.observe();
      a.gitState();
      return o;
    }
  }

  /** The pre-D29 invocation: git outside any sandbox, the repository's configuration obeyed. */
  private static void gitAsBefore(Path ws, String... args) {
    List<String> argv = new ArrayList<>(List.of("git", "-C", ws.toString()));
    argv.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
    pb.environment().putAll(Map.of("GIT_OPTIONAL_LOCKS", "0", "LC_ALL", "C"));
    try {
      Process p = pb.start();
      p.getOutputStream().close();
      p.getInputStream().readAllBytes();
      p.waitFor();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Test
  void anFsmonitorIsNeverRun() throws IOException {
    appendConfig(root, "[core]\n\tfsmonitor = " + payload + "\n");
    observeThroughTheAdapter(root);
    assertThat(markerAppeared()).isFalse();
    gitAsBefore(root, "status", "--porcelain=v1");
    assertThat(markerAppeared()).as("canary: the plant is live").isTrue();
  }

  @Test
  void aCleanFilterNamedByGitattributesIsNeverRun() throws IOException {
    Workspaces.put(root, ".gitattributes", "*.txt filter=x\n");
    appendConfig(root, "[filter \"x\"]\n\tclean = " + payload + "\n\trequired = true\n");
    // Same size, new mtime: status cannot tell by size and must run the clean filter to compare.
    Workspaces.put(root, "notes.txt", "v2\n");
    Observation o = observeThroughTheAdapter(root);
    assertThat(o.stateFingerprint()).isNotNull();
    assertThat(markerAppeared()).isFalse();
    gitAsBefore(root, "status", "--porcelain=v1");
    assertThat(markerAppeared()).as("canary: the plant is live").isTrue();
  }

  @Test
  void anIncludedConfigurationIsNeverRead() throws IOException {
    Workspaces.put(root, "evil.cfg", "[core]\n\tfsmonitor = " + payload + "\n");
    appendConfig(root, "[include]\n\tpath = ../evil.cfg\n");
    observeThroughTheAdapter(root);
    assertThat(markerAppeared()).isFalse();
    gitAsBefore(root, "status", "--porcelain=v1");
    assertThat(markerAppeared()).as("canary: the plant is live").isTrue();
  }

  @Test
  void hooksAreNeverRun() throws IOException {
    Path hooks = root.resolve("hooks");
    Files.createDirectories(hooks);
    for (String hook :
        List.of(
            "pre-commit",
            "post-index-change",
            "post-checkout",
            "pre-auto-gc",
            "reference-transaction")) {
      script(root.resolve(".git/hooks/" + hook));
      script(hooks.resolve(hook));
    }
    appendConfig(root, "[core]\n\thooksPath = " + hooks + "\n");
    WorkspaceAdapter a = Workspaces.builder(root, Workspaces.clock()).open();
    try (a) {
      a.observe();
      a.execute(
          Workspaces.write("app.py", "print(2)\n", "print(1)\n"),
          "k1",
          Workspaces.fence(1),
          Workspaces.none());
      a.observe();
    }
    assertThat(markerAppeared()).isFalse();
    Workspaces.git(root, "commit", "-q", "--allow-empty", "-m", "canary");
    assertThat(markerAppeared()).as("canary: the hooks are live").isTrue();
  }

  @Test
  void aGitdirFileIsRefusedAsDriftAndNeverFollowed() throws IOException {
    // A repository elsewhere (the Ratchet home, say) whose configuration runs the payload.
    Path elsewhere = outside.resolve("home-repo");
    Files.createDirectories(elsewhere);
    Workspaces.git(elsewhere, "init", "-q", "-b", "main");
    appendConfig(elsewhere, "[core]\n\tfsmonitor = " + payload + "\n");
    Observation before = observeThroughTheAdapter(root);
    deleteTree(root.resolve(".git"));
    Workspaces.put(root, ".git", "gitdir: " + elsewhere.resolve(".git") + "\n");
    try (WorkspaceAdapter a = Workspaces.builder(root, Workspaces.clock()).open()) {
      assertThat(a.observe().stateFingerprint()).isNotEqualTo(before.stateFingerprint());
      assertThat(a.gitState()).isEmpty();
      assertThat(a.driftEvidence()).hasValueSatisfying(d -> assertThat(d).contains("gitdir"));
    }
    assertThat(markerAppeared()).isFalse();
    gitAsBefore(root, "status", "--porcelain=v1");
    assertThat(markerAppeared()).as("canary: the redirect is live").isTrue();
  }

  @Test
  void aGitDirectoryCreatedInAPlainWorkspaceIsDriftAndNeverSwitchesGitOn(@TempDir Path plain)
      throws IOException {
    Workspaces.put(plain, "app.py", "print(1)\n");
    Path script = script(plain.resolve("payload.sh"));
    Observation before;
    try (WorkspaceAdapter a = Workspaces.builder(plain, Workspaces.clock()).open()) {
      before = a.observe();
      Workspaces.git(plain, "init", "-q", "-b", "main");
      appendConfig(plain, "[core]\n\tfsmonitor = " + script + "\n");
      assertThat(a.observe().stateFingerprint()).isNotEqualTo(before.stateFingerprint());
    }
    // A later open (resume, status, the console) does not switch git on either.
    try (WorkspaceAdapter a = Workspaces.builder(plain, Workspaces.clock()).open()) {
      assertThat(a.observe().stateFingerprint()).isNotEqualTo(before.stateFingerprint());
      assertThat(a.gitState()).isEmpty();
      assertThat(a.driftEvidence())
          .hasValueSatisfying(d -> assertThat(d).contains(".git appeared"));
    }
    assertThat(markerAppeared()).isFalse();
    gitAsBefore(plain, "status", "--porcelain=v1");
    assertThat(markerAppeared()).as("canary: the plant is live").isTrue();
  }

  @Test
  void aConfigurationChangedDuringARunIsDrift() throws IOException {
    try (WorkspaceAdapter a = Workspaces.builder(root, Workspaces.clock()).open()) {
      Observation before = a.observe();
      appendConfig(root, "[remote \"origin\"]\n\turl = https://example.invalid/x.git\n");
      assertThat(a.observe().stateFingerprint()).isNotEqualTo(before.stateFingerprint());
    }
  }

  @Test
  void aWorktreeOrAlternatesRedirectIsRefusedAsDrift() throws IOException {
    Observation before = observeThroughTheAdapter(root);
    appendConfig(root, "[core]\n\tworktree = " + outside + "\n");
    try (WorkspaceAdapter a = Workspaces.builder(root, Workspaces.clock()).open()) {
      assertThat(a.observe().stateFingerprint()).isNotEqualTo(before.stateFingerprint());
      assertThat(a.driftEvidence())
          .hasValueSatisfying(d -> assertThat(d).contains("core.worktree"));
    }
    Workspaces.git(root, "config", "--unset", "core.worktree");
    Files.writeString(root.resolve(".git/objects/info/alternates"), outside + "\n");
    try (WorkspaceAdapter a = Workspaces.builder(root, Workspaces.clock()).open()) {
      assertThat(a.driftEvidence()).hasValueSatisfying(d -> assertThat(d).contains("alternates"));
    }
  }

  @Test
  void withoutTheSandboxAConfigurationGitWouldObeyIsRefusedAndNotRun() throws IOException {
    appendConfig(root, "[core]\n\tfsmonitor = " + payload + "\n");
    try (WorkspaceAdapter a =
        Workspaces.builder(root, Workspaces.clock()).sandbox(CommandSandbox.unsandboxed()).open()) {
      a.observe();
      assertThat(a.gitState()).isEmpty();
      assertThat(a.driftEvidence())
          .hasValueSatisfying(
              d -> assertThat(d).contains("core.fsmonitor").contains("outside the sandbox"));
    }
    assertThat(markerAppeared()).isFalse();
  }

  @Test
  void withoutTheSandboxAnInertConfigurationStillWorks() throws IOException {
    appendConfig(root, "[remote \"origin\"]\n\turl = https://example.invalid/x.git\n");
    try (WorkspaceAdapter a =
        Workspaces.builder(root, Workspaces.clock()).sandbox(CommandSandbox.unsandboxed()).open()) {
      assertThat(a.gitState())
          .hasValueSatisfying(g -> assertThat(g.head()).matches("[0-9a-f]{40}"));
      assertThat(a.driftEvidence()).isEmpty();
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
