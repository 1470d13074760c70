package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.read;
import static dev.ratchet.testkit.Scenarios.tests;
import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.store.RecordSet;
import org.junit.jupiter.api.Test;

class HappyPathTest {
  private final RuntimeFixture f = RuntimeFixture.inMemory(7);
  private final TaskSpec task = f.task();
  private final InMemoryWorkspace ws = f.workspace();

  @Test
  @Rules({"R2.3.2-minted-key", "R2.3.6-execute", "R2.3.5-read", "R2.3.5-verify", "R2.3.5-finish"})
  void aWriteVerifyFinishRunCompletesWithEachEffectOnce() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      assertThat(run.generation()).isEqualTo(1);
      StepOutcome r = run.apply(run.action("a1", "read_file", read("app.py")));
      assertThat(r.result().get("content").get().toString()).contains("hello");

      Proposal p =
          run.propose(run.action("a2", "write_file", write("app.py", RuntimeFixture.FIXED)));
      assertThat(p.kind()).isEqualTo(Proposal.Kind.PENDING);
      String key = p.action().idempotencyKey();
      assertThat(key).matches("[0-9a-f]{32}");
      assertThat(run.state().pending().key()).isEqualTo(key);
      assertThat(ws.effects(key)).isZero();

      StepOutcome w = run.execute("a2");
      assertThat(w.kind()).isEqualTo(StepOutcome.Kind.EXECUTED);
      assertThat(w.receipt().idempotencyKey()).isEqualTo(key);
      assertThat(ws.effects(key)).isEqualTo(1);
      assertThat(run.state().pending()).isNull();

      StepOutcome t = run.apply(run.action("a3", "run_tests", tests()));
      assertThat(t.result().get("passed").get().toString()).isEqualTo("true");
      run.apply(run.action("a4", "finish", JsonObject.EMPTY));

      assertThat(run.state().phase()).isEqualTo(Phase.COMPLETED);
      assertThat(run.state().stopReason()).isEqualTo("verified_outcome");
      assertThat(run.state().verified().revision()).isEqualTo(ws.observe().revision());
      assertThat(run.state().head(RecordSet.RECEIPTS).count()).isEqualTo(1);
      assertThat(ws.files()).containsEntry("app.py", RuntimeFixture.FIXED);
    }
  }

  @Test
  @Rules({"R2.1-terminal", "R2.3.5-cancel"})
  void aCancelledRunRefusesEverythingAfter() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      run.apply(run.action("c1", "cancel", Scenarios.cancel("operator asked")));
      assertThat(run.state().phase()).isEqualTo(Phase.CANCELLED);
      assertThat(run.state().stopReason()).isEqualTo("operator asked");
      assertThatThrownBy(() -> run.propose(run.action("a1", "read_file", read("app.py"))))
          .isInstanceOfSatisfying(
              RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TERMINAL));
    }
  }

  @Test
  @Rules({"R2.3.5-finish", "R2.3.5-execution-error"})
  void finishWithoutCurrentVerificationIsRefusedAndKeepsTheStep() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      run.apply(run.action("t1", "run_tests", tests()));
      long steps = run.state().usage().steps();
      assertThatThrownBy(() -> run.apply(run.action("f1", "finish", JsonObject.EMPTY)))
          .isInstanceOfSatisfying(
              RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.VERIFICATION));
      assertThat(run.state().usage().steps()).isEqualTo(steps + 1);
      assertThat(run.state().phase()).isEqualTo(Phase.RUNNING);
      // Evidence from before a later write cannot prove the newer revision.
      run.apply(run.action("w1", "write_file", write("app.py", RuntimeFixture.FIXED)));
      run.apply(run.action("t2", "run_tests", tests()));
      run.apply(run.action("w2", "append_file", write("log.txt", "fixed\n")));
      assertThatThrownBy(() -> run.apply(run.action("f2", "finish", JsonObject.EMPTY)))
          .isInstanceOfSatisfying(
              RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.VERIFICATION));
    }
  }
}
