package dev.ratchet.adapters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.adapter.TaskOutline;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.TaskRules;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.testkit.RuntimeFixture;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC D31: the library validates whole tasks. Through {@code Ratchet.start} alone — no command
 * line — a traversal target, a non-canonical path, an unknown permission and an expected file
 * outside the targets are each refused with {@code CONTRACT} naming the field, and no run is
 * created.
 */
class WholeTaskThroughTheLibraryTest {
  @TempDir Path root;

  private static TaskSpec task(Set<String> permissions, Set<String> targets, String expected) {
    return new TaskSpec(
        "library-task",
        "v1",
        "workspace-policy",
        "v1",
        WorkspaceAdapter.NAMESPACE,
        permissions,
        Set.of("read_file", "write_file"),
        targets,
        Set.of(),
        new Budgets(50, 20, 86_400_000L, 0),
        JsonObject.builder()
            .put("files", JsonObject.builder().put("app.py", "print(1)\n").build())
            .build(),
        JsonObject.builder()
            .put("expected_files", JsonObject.builder().put(expected, "print(2)\n").build())
            .build());
  }

  private static final Set<String> PERMISSIONS = Set.of("workspace.read", "workspace.write");

  private void refused(TaskSpec task, String field) {
    RuntimeFixture f = RuntimeFixture.inMemory(31);
    Workspaces.put(root, "app.py", "print(1)\n");
    try (WorkspaceAdapter ws = Workspaces.builder(root, Workspaces.clock()).open()) {
      Throwable t = catchThrowable(() -> f.ratchet("w1").start(task, "r1", ws).close());
      assertThat(t).isInstanceOf(RatchetException.class);
      assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.CONTRACT);
      assertThat(t.getMessage()).contains(field);
      assertThat(ws.observe().revision()).isZero();
    }
    assertThat(f.store.runs()).as("no run was created").isEmpty();
  }

  @Test
  void aTraversalTargetIsRefused() {
    refused(task(PERMISSIONS, Set.of("app.py", "../app.py"), "app.py"), "task.targets");
  }

  @Test
  void aNonCanonicalPathIsRefused() {
    refused(task(PERMISSIONS, Set.of("app.py", "folder//app.py"), "app.py"), "task.targets");
  }

  @Test
  void anUnknownPermissionIsRefused() {
    refused(
        task(Set.of("workspace.read", "workspace.write", "host.admin"), Set.of("app.py"), "app.py"),
        "task.permissions");
  }

  @Test
  void anExpectedFileOutsideTheTargetsIsRefused() {
    refused(task(PERMISSIONS, Set.of("app.py"), "other.py"), "task.verifier.expected_files");
  }

  @Test
  void aPlanWhoseExpectedDigestContradictsTheTasksOwnFilesIsRefusedByTheLibrarysRules() {
    // Ratchet.start takes no plan (an agent proposes step by step); a host with a plan hands it to
    // the same public rules Ratchet.start runs, and the provider found by ServiceLoader judges it.
    TaskSpec task = task(PERMISSIONS, Set.of("app.py"), "app.py");
    JsonObject write =
        JsonObject.builder()
            .put("path", "app.py")
            .put("content", "print(2)\n")
            .put("expected_sha256", Canonical.sha256Hex("something else\n"))
            .build();
    JsonObject read = JsonObject.builder().put("path", "app.py").build();
    try (WorkspaceAdapter ws = Workspaces.builder(root, Workspaces.clock()).open()) {
      Throwable t =
          catchThrowable(
              () ->
                  TaskRules.check(
                      task,
                      List.of(
                          new TaskOutline.Step("read_file", read),
                          new TaskOutline.Step("write_file", write)),
                      ws.actionSpecs()));
      assertThat(t).isInstanceOf(RatchetException.class);
      assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.CONTRACT);
      assertThat(t.getMessage())
          .contains("plan[1].arguments.expected_sha256")
          .contains(Canonical.sha256Hex("print(1)\n"));
      // The same plan naming the declared content's digest passes.
      JsonObject agreeing =
          JsonObject.builder()
              .put("path", "app.py")
              .put("content", "print(2)\n")
              .put("expected_sha256", Canonical.sha256Hex("print(1)\n"))
              .build();
      TaskRules.check(
          task, List.of(new TaskOutline.Step("write_file", agreeing)), ws.actionSpecs());
    }
  }

  @Test
  void aValidTaskStarts() {
    RuntimeFixture f = RuntimeFixture.inMemory(31);
    Workspaces.put(root, "app.py", "print(1)\n");
    try (WorkspaceAdapter ws = Workspaces.builder(root, Workspaces.clock()).open()) {
      f.ratchet("w1").start(task(PERMISSIONS, Set.of("app.py"), "app.py"), "r1", ws).close();
    }
    assertThat(f.store.runs()).hasSize(1);
  }
}
