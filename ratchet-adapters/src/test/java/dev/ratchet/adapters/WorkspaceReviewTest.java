package dev.ratchet.adapters;

import static dev.ratchet.adapters.Workspaces.sha;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.Run;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.testkit.CrashPlan;
import dev.ratchet.testkit.RuntimeFixture;
import dev.ratchet.testkit.SeededEntropy;
import dev.ratchet.testkit.SimulatedCrash;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the runtime does with what the workspace reports: a write that lands after its approval
 * expired, or a new base commit under a pending write, is never reconciled automatically (D9, D13):
 * the run goes to review.
 */
class WorkspaceReviewTest {
  @TempDir Path root;
  final RuntimeFixture f = RuntimeFixture.inMemory(5);
  final WorkspaceRuntimeTest shape = new WorkspaceRuntimeTest();

  private JsonObject fix() {
    return JsonObject.builder()
        .put("path", "app.py")
        .put("content", WorkspaceRuntimeTest.FIXED)
        .put("expected_sha256", sha(WorkspaceRuntimeTest.BROKEN))
        .build();
  }

  @Test
  void aWriteThatLandsAfterItsApprovalExpiredGoesToReview() {
    Workspaces.put(root, "app.py", WorkspaceRuntimeTest.BROKEN);
    TaskSpec task = shape.task(1, Set.of("write_file"));
    // Time passes inside the write, between the rename and the receipt (a stalled process):
    // longer than the approval lives, shorter than the lease.
    try (WorkspaceAdapter ws =
            WorkspaceAdapter.builder(root)
                .clock(f.clock)
                .entropy(new SeededEntropy(1))
                .crashSeam(p -> f.clock.advance(Duration.ofSeconds(20)))
                .open();
        Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      Proposal p = run.propose(run.action("a1", "write_file", fix()));
      f.approvePending(run, task, Duration.ofSeconds(10));
      run.execute(p.action().actionId());
      assertThat(run.state().phase()).isEqualTo(Phase.NEEDS_REVIEW);
      assertThat(run.state().stopReason()).isEqualTo("receipt_unbound");
    }
  }

  @Test
  void aNewBaseCommitUnderAPendingWriteIsDriftAtRecovery() {
    Workspaces.put(root, "app.py", WorkspaceRuntimeTest.BROKEN);
    Workspaces.git(root, "init", "-q", "-b", "main");
    Workspaces.git(root, "add", "-A");
    Workspaces.git(root, "commit", "-q", "-m", "base");
    TaskSpec task = shape.task(1, Set.of());
    CrashPlan plan = new CrashPlan();
    try (WorkspaceAdapter ws =
        WorkspaceAdapter.builder(root).clock(f.clock).entropy(new SeededEntropy(1)).open()) {
      Run run = f.ratchet("w1", plan).start(task, "run-1", ws);
      plan.arm(CrashPoint.AFTER_INTENT_COMMIT);
      assertThatThrownBy(() -> run.propose(run.action("a1", "write_file", fix())))
          .isInstanceOf(SimulatedCrash.class);
      Workspaces.git(root, "commit", "-q", "--allow-empty", "-m", "someone rebased the branch");
      f.clock.advance(Duration.ofMinutes(1));
      try (Run resumed = f.ratchet("w2").resume(task, "run-1", ws)) {
        assertThat(resumed.state().phase()).isEqualTo(Phase.NEEDS_REVIEW);
        assertThat(resumed.state().stopReason()).isEqualTo("environment_drift");
      }
    }
    assertThat(Workspaces.read(root.resolve("app.py"))).isEqualTo(WorkspaceRuntimeTest.BROKEN);
  }
}
