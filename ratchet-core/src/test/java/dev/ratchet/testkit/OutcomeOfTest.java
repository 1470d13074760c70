package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.read;
import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.model.ApprovalRejection;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.model.TraceOutcome;
import dev.ratchet.outcome.ActionOutcome;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.outcome.StepOutcome.Kind;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * SPEC D32: a step answers with a value (waiting and a rejection are never exceptions) and {@code
 * Run.outcomeOf} says what became of any action, from an in-memory index of the authenticated trace
 * that a resumed run rebuilds, and that answers without reading the store once built.
 */
class OutcomeOfTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
  private final StoreCallsPerStepTest.Counting counting =
      new StoreCallsPerStepTest.Counting(new InMemoryStore(clock), clock);
  private final RuntimeFixture f = new RuntimeFixture(35, clock, counting, counting);
  private final TaskSpec task = f.task("write_file");
  private final InMemoryWorkspace ws = f.workspace();

  @Test
  void everyKindOfEndIsAnsweredByActionIdAndSurvivesAResume() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      assertThat(run.apply(run.action("r1", "read_file", read("app.py"))).kind())
          .isEqualTo(Kind.EXECUTED);

      run.propose(run.action("w1", "write_file", write("app.py", RuntimeFixture.FIXED)));
      StepOutcome waiting = run.execute("w1");
      assertThat(waiting).isInstanceOf(StepOutcome.AwaitingApproval.class);
      assertThat(run.outcomeOf("w1").orElseThrow().kind()).isEqualTo(Kind.AWAITING_APPROVAL);

      f.deliverUnchecked(
          Ratchet.sign(
              ApprovalRejection.ofPending("alice", run.state(), task, "not now", "rej-1"),
              f.approverKey));
      assertThat(run.execute("w1")).isInstanceOf(StepOutcome.Rejected.class);

      run.propose(run.action("w2", "write_file", write("app.py", RuntimeFixture.FIXED)));
      String key = run.state().pending().key();
      String digest = run.state().pending().intentDigest();
      f.approvePending(run, task, Duration.ofHours(1));
      assertThat(run.execute("w2").kind()).isEqualTo(Kind.EXECUTED);

      Throwable denied =
          catchThrowable(() -> run.propose(run.action("d1", "read_file", read("secret.py"))));
      assertThat(denied).isNotNull();

      assertAnswers(run, key, digest);
    }
    clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
    try (Run again = f.ratchet("w2").resume(task, "run-1", ws)) {
      assertAnswers(again, null, null); // the index rebuilt from the stored trace alone
    }
  }

  private static void assertAnswers(Run run, String key, String digest) {
    assertThat(run.outcomeOf("r1").orElseThrow().kind()).isEqualTo(Kind.EXECUTED);
    ActionOutcome rejected = run.outcomeOf("w1").orElseThrow();
    assertThat(rejected.kind()).isEqualTo(Kind.REJECTED);
    assertThat(rejected.traced()).isEqualTo(TraceOutcome.INTENT_REJECTED);
    assertThat(rejected.detail().toString()).contains("not now");
    ActionOutcome done = run.outcomeOf("w2").orElseThrow();
    assertThat(done.kind()).isEqualTo(Kind.EXECUTED);
    assertThat(done.done()).isTrue();
    if (key != null) {
      assertThat(done.idempotencyKey()).isEqualTo(key);
      assertThat(done.intentDigest()).isEqualTo(digest);
    }
    assertThat(done.idempotencyKey()).isNotNull();
    ActionOutcome refused = run.outcomeOf("d1").orElseThrow();
    assertThat(refused.kind()).isEqualTo(Kind.REFUSED);
    assertThat(refused.code()).isEqualTo(ErrorCode.PERMISSION);
    assertThat(run.outcomeOf("never-proposed")).isEmpty();
  }

  @Test
  void onceBuiltTheIndexAnswersWithoutReadingTheStoreAndFollowsNewCommits() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      for (int i = 0; i < 5; i++) {
        run.apply(run.action("r" + i, "read_file", read("app.py")));
      }
      assertThat(run.outcomeOf("r0")).isPresent(); // builds the index from the stored trace
      long reads = counting.reads;
      for (int i = 5; i < 10; i++) {
        run.apply(run.action("r" + i, "read_file", read("app.py")));
        assertThat(run.outcomeOf("r" + i).orElseThrow().kind()).isEqualTo(Kind.EXECUTED);
        assertThat(run.outcomeOf("r0").orElseThrow().kind()).isEqualTo(Kind.EXECUTED);
      }
      assertThat(counting.reads - reads).as("no store read after the index was built").isZero();
    }
  }

  @Test
  void theLatestAttemptUnderAPrefixIsTheLastDecided() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      run.apply(run.action("t1.0.g1", "read_file", read("app.py")));
      catchThrowable(() -> run.propose(run.action("t1.0.g2", "read_file", read("secret.py"))));
      assertThat(run.latestOutcomeOf("t1.0.g").orElseThrow().actionId()).isEqualTo("t1.0.g2");
      assertThat(run.latestOutcomeOf("t1.1.g")).isEmpty();
    }
  }
}
