package dev.ratchet.testkit.foundation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.Run;
import dev.ratchet.adapter.WorkspacePaths;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.testkit.Rules;
import dev.ratchet.testkit.RuntimeFixture;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Workspace paths (reference-behaviour §1.3, D14): relative, canonical, free of backslash and NUL,
 * and refused with their path when a proposed write names one outside the workspace.
 */
class WorkspacePathsTest {
  /** Asserts a CONTRACT refusal whose message starts with {@code path} and names {@code rule}. */
  private static void contract(ThrowingCallable call, String path, String rule) {
    Throwable t = catchThrowable(call);
    assertThat(t).isInstanceOf(RatchetException.class);
    RatchetException e = (RatchetException) t;
    assertThat(e.code()).isEqualTo(ErrorCode.CONTRACT);
    assertThat(e.getMessage()).startsWith(path + ": ").contains(rule);
  }

  @Test
  @Rules({"R1.3-path", "R1.2-codes"})
  void workspacePathsAreRelativeCanonicalAndFreeOfBackslashAndNul() {
    for (String ok : List.of("app.py", "src/main/app.py", ".hidden", "...", " a", "a b/c")) {
      assertThat(WorkspacePaths.require("args.path", ok)).isEqualTo(ok);
    }
    assertThat(WorkspacePaths.require("p", "x".repeat(200))).hasSize(200);
    contract(() -> WorkspacePaths.require("p", "x".repeat(201)), "p", "at most 200");
    contract(() -> WorkspacePaths.require("p", "/etc/passwd"), "p", "must be relative");
    for (String bad : List.of("a/../b", "../a", "./a", "a/.", "a//b", "a/", "..")) {
      contract(() -> WorkspacePaths.require("p", bad), "p", "must be canonical");
    }
    contract(() -> WorkspacePaths.require("p", "a\\b"), "p", "must not contain a backslash or NUL");
    contract(() -> WorkspacePaths.require("p", "a\u0000b"), "p", "backslash or NUL");
    contract(() -> WorkspacePaths.require("p", " "), "p", "must not be empty or blank");
  }

  @Test
  @Rules({"R1.3-path", "R1.2-codes"})
  void aProposedWriteOutsideTheWorkspaceIsRefusedWithItsPath() {
    RuntimeFixture f = RuntimeFixture.inMemory(51);
    try (Run run = f.ratchet("w1").start(f.task(), "run-1", f.workspace())) {
      for (String bad : List.of("../app.py", "/app.py", "a\\app.py")) {
        JsonObject args = JsonObject.builder().put("path", bad).put("content", "x").build();
        Throwable t = catchThrowable(() -> run.propose(run.action("w-" + bad, "write_file", args)));
        assertThat(t).isInstanceOf(RatchetException.class);
        assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.CONTRACT);
        assertThat(t.getMessage()).contains("path");
      }
    }
  }
}
