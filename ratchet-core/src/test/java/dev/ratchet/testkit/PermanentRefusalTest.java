package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.model.TraceEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * ADR 0050: a driver that cannot get past a policy refusal ends the run failed with the reason
 * traced; never with a write pending, never for a refusal that is not the run's policy.
 */
class PermanentRefusalTest {
  private final RuntimeFixture f = RuntimeFixture.inMemory(51);
  private final TaskSpec task = f.task();
  private final InMemoryWorkspace ws = f.workspace();

  @Test
  void aPermissionRefusalTheDriverGivesUpOnEndsTheRunFailedWithItsReason() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      RatchetException refused =
          (RatchetException)
              catchThrowable(
                  () -> run.propose(run.action("a1", "write_file", write("secret.txt", "x\n"))));
      assertThat(refused.code()).isEqualTo(ErrorCode.PERMISSION);
      assertThat(run.state().phase())
          .as("the runtime alone keeps it running")
          .isEqualTo(Phase.RUNNING);

      run.fail(refused);
      assertThat(run.state().phase()).isEqualTo(Phase.FAILED);
      assertThat(run.state().stopReason()).isEqualTo("refused_permission");
      List<TraceEvent> trace = run.trace();
      TraceEvent last = trace.get(trace.size() - 1);
      assertThat(last.outcome().wireName()).isEqualTo("permanently_refused");
      assertThat(last.detail().toString()).contains("PERMISSION").contains(refused.getMessage());
    }
    try (Run again = f.ratchet("w2").resume(task, "run-1", ws)) {
      assertThat(again.state().phase()).as("terminal, durably").isEqualTo(Phase.FAILED);
    }
  }

  @Test
  void itIsRefusedWithAWritePendingAndForRefusalsThatAreNotPolicy() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      RatchetException fenced = new RatchetException(ErrorCode.FENCED, "lost the lease");
      Throwable notPolicy = catchThrowable(() -> run.fail(fenced));
      assertThat(((RatchetException) notPolicy).code()).isEqualTo(ErrorCode.CONTRACT);

      run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
      long generation = run.generation();
      Throwable pending =
          catchThrowable(() -> run.fail(RatchetException.contract("plan step refused")));
      assertThat(((RatchetException) pending).code()).isEqualTo(ErrorCode.CONTRACT);
      assertThat(pending).hasMessageContaining("cannot fail while an intent is pending");
      assertThat(run.state().phase()).isEqualTo(Phase.RUNNING);
      assertThat(run.generation()).as("nothing committed").isEqualTo(generation);
    }
  }
}
