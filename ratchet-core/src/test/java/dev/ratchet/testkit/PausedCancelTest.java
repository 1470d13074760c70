package dev.ratchet.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.model.PauseDecision;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.outcome.Recovery;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * D37 lifecycle gap closed: a signed cancel ends a paused run directly ({@code paused → cancelled},
 * traced {@code operator_cancelled}), without an unpause first and so without the run ever stepping
 * again; a refused cancel leaves it paused.
 */
class PausedCancelTest {
  private final RuntimeFixture f = RuntimeFixture.inMemory(144);
  private final TaskSpec task = f.task("write_file");
  private final InMemoryWorkspace ws = f.workspace();

  @Test
  void aSignedCancelEndsAPausedRunAndAnUntrustedOneLeavesItPaused() {
    f.ratchet("w1").start(task, "run-1", ws).close();
    f.deliverPause(PauseDecision.Kind.PAUSE, task, "run-1", f.operatorKey, "pause-1");
    f.ratchet("w2").resume(task, "run-1", ws).close();

    f.deliverCancel(task, "run-1", f.approverKey, "cancel-x");
    try (Run run = f.ratchet("w3").resume(task, "run-1", ws)) {
      assertThat(run.state().phase()).isEqualTo(Phase.PAUSED);
      assertThat(last(run.trace()).outcome().wireName()).isEqualTo("cancel_rejected");
    }

    f.deliverCancel(task, "run-1", f.operatorKey, "cancel-1");
    try (Run run = f.ratchet("w4").resume(task, "run-1", ws)) {
      assertThat(run.recovery().found()).isEqualTo(Recovery.Found.PAUSED);
      assertThat(run.recovery().did()).isEqualTo(Recovery.Did.CANCELLED);
      assertThat(run.state().phase()).isEqualTo(Phase.CANCELLED);
      assertThat(run.state().stopReason()).isEqualTo("cancelled_by_operator");
      TraceEvent last = last(run.trace());
      assertThat(last.outcome().wireName()).isEqualTo("operator_cancelled");
      assertThat(last.detail().toString()).contains("cancel-1");
      assertThat(run.state().cursor()).as("nothing ran after the pause").isZero();
    }
  }

  private static TraceEvent last(List<TraceEvent> trace) {
    return trace.get(trace.size() - 1);
  }
}
