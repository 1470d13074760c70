package dev.ratchet.adapters;

import static dev.ratchet.adapters.Workspaces.fence;
import static dev.ratchet.adapters.Workspaces.none;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.adapter.Observation;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** In a git work tree HEAD and the dirty state are part of every observation (D13). */
class GitWorkspaceTest {
  @TempDir Path root;
  WorkspaceAdapter ws;

  @BeforeEach
  void open() {
    Workspaces.put(root, "app.py", "print(1)\n");
    Workspaces.put(root, ".gitignore", "build/\n");
    Workspaces.git(root, "init", "-q", "-b", "main");
    Workspaces.git(root, "add", "-A");
    Workspaces.git(root, "commit", "-q", "-m", "base");
    ws = Workspaces.builder(root, Workspaces.clock()).open();
  }

  @AfterEach
  void close() {
    ws.close();
  }

  @Test
  void headAndDirtyStateAreObserved() {
    GitState clean = ws.gitState().orElseThrow();
    assertThat(clean.head()).matches("[0-9a-f]{40}");
    assertThat(clean.dirty()).isFalse();
    ws.execute(Workspaces.write("app.py", "print(2)\n", "print(1)\n"), "k1", fence(1), none());
    GitState dirty = ws.gitState().orElseThrow();
    assertThat(dirty.head()).isEqualTo(clean.head());
    assertThat(dirty.dirty()).isTrue();
  }

  @Test
  void aNewBaseCommitIsDriftEvenWithTheSameFiles() {
    Observation before = ws.observe();
    Workspaces.git(root, "commit", "-q", "--allow-empty", "-m", "someone else");
    Observation after = ws.observe();
    assertThat(after.revision()).isEqualTo(before.revision());
    assertThat(after.stateFingerprint()).isNotEqualTo(before.stateFingerprint());
  }

  @Test
  void stagingAChangeIsDrift() {
    Workspaces.put(root, "app.py", "print(3)\n");
    Observation unstaged = ws.observe();
    Workspaces.git(root, "add", "app.py");
    assertThat(ws.observe().stateFingerprint()).isNotEqualTo(unstaged.stateFingerprint());
  }

  @Test
  void ignoredBuildOutputIsNotStateAndIsNotWritable() {
    Observation before = ws.observe();
    Workspaces.put(root, "build/out.class", "bytes");
    assertThat(ws.observe()).isEqualTo(before);
    assertThatThrownBy(
            () -> ws.execute(Workspaces.write("build/x.txt", "x", null), "k1", fence(1), none()))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION));
    assertThat(root.resolve("build/x.txt")).doesNotExist();
  }

  @Test
  void theControlDirectoryNeverShowsInGitStatus() {
    ws.execute(Workspaces.write("new.txt", "n", null), "k1", fence(1), none());
    Workspaces.git(root, "add", "-A");
    Workspaces.git(root, "commit", "-q", "-m", "agent work");
    assertThat(ws.gitState().orElseThrow().dirty()).isFalse();
  }
}
