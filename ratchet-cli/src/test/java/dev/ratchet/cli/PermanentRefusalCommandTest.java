package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.ops.Driver;
import dev.ratchet.ops.internal.PlanStep;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.RuntimeFixture;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17, ADR 0050: a plan step the policy refuses, or a finish the verifier refuses, ends the
 * run failed with the reason, instead of leaving it running for every resume to repeat the error.
 */
class PermanentRefusalCommandTest {
  @TempDir Path dir;

  private MemoryHarness h() {
    MemoryHarness h = new MemoryHarness(dir, 23);
    assertThat(h.run("keys", "generate").exit()).isZero();
    return h;
  }

  @Test
  void aStepThePolicyRefusesEndsTheRunFailedAtOnce() {
    // Whole-task validation refuses such a plan in a task file, so the plan driver is given the
    // step directly: a task without workspace.write, a plan that writes.
    RuntimeFixture f = RuntimeFixture.inMemory(29);
    TaskSpec base = f.task();
    TaskSpec readOnly =
        new TaskSpec(
            base.taskId(),
            base.taskVersion(),
            base.policyId(),
            base.policyVersion(),
            base.adapter(),
            Set.of("workspace.read", "tests.run"),
            base.actionKinds(),
            base.targets(),
            base.approvalRequired(),
            base.budgets(),
            base.environment(),
            base.verifier());
    InMemoryWorkspace ws = f.workspace();
    List<String> progress = new ArrayList<>();
    try (Run run = f.ratchet("w1").start(readOnly, "r1", ws)) {
      Driver.Result r =
          new Driver(
                  run,
                  List.of(
                      new PlanStep(
                          "fix",
                          "write_file",
                          JsonObject.builder()
                              .put("path", "app.py")
                              .put("content", "x\n")
                              .build())),
                  progress::add)
              .drive();
      assertThat(r.exitCode()).isEqualTo(3);
      assertThat(r.summary())
          .contains("run r1 failed (refused_permission)")
          .contains("the run is terminal");
      assertThat(run.state().phase()).isEqualTo(Phase.FAILED);
    }
    assertThat(ws.ledger()).isEmpty();
    try (Run again = f.ratchet("w2").resume(readOnly, "r1", ws)) {
      assertThat(again.state().phase())
          .as("every later resume sees it ended")
          .isEqualTo(Phase.FAILED);
      assertThat(again.trace().get(again.trace().size() - 1).outcome())
          .isEqualTo("permanently_refused");
    }
  }

  @Test
  void aFinishTheVerifierRefusesEndsTheRunFailed() {
    MemoryHarness h = h();
    String plan =
        """
        [
          {"id": "fix", "kind": "write_file", "arguments": {"path": "app.py", "content": "print('nope')\\n"}},
          {"id": "test", "kind": "run_tests", "arguments": {"target": "unit"}},
          {"id": "done", "kind": "finish", "arguments": {}}
        ]
        """;
    MemoryHarness.Result r =
        h.run("run", h.taskFile("t.json", "", plan).toString(), "--run-id", "r1");
    assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(3);
    assertThat(r.err()).contains("run r1 failed (refused_verification)");
    assertThat(h.workspace.ledger()).hasSize(1);
    assertThat(h.run("status", "r1").out()).contains("failed");
  }
}
