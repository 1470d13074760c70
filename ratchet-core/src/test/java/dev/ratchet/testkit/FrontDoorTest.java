package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.read;
import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Action;
import dev.ratchet.model.Approval;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.Recovery;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.SecretKey;
import dev.ratchet.store.RecordSet;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The front door an agent loop lives with: resume, observe, trace, deliver, execute(Proposal). */
class FrontDoorTest {
  private final RuntimeFixture f = RuntimeFixture.inMemory(77);
  private final InMemoryWorkspace ws = f.workspace();

  @Test
  void resumeReturnsTheRunWithWhatRecoveryFoundAndDid() {
    TaskSpec task = f.task();
    f.ratchet("w1").start(task, "run-1", ws).close();
    try (Run run = f.ratchet("w2").resume(task, "run-1", ws)) {
      assertThat(run.recovery().found()).isEqualTo(Recovery.Found.CLEAN);
      assertThat(run.recovery().did()).isEqualTo(Recovery.Did.NOTHING);
      assertThat(run.recovery().found()).hasToString("clean");
      assertThat(run.recovery().generation()).isEqualTo(run.generation());
    }
  }

  @Test
  void observeRestampsActionsAfterAnOutsideChange() {
    TaskSpec task = f.task();
    Run run = f.ratchet("w1").start(task, "run-1", ws);
    ws.externalWrite("log.txt", "outside\n");
    Action stale = run.action("a1", "read_file", read("app.py"));
    assertThatThrownBy(() -> run.propose(stale))
        .isInstanceOf(RatchetException.class)
        .extracting(e -> ((RatchetException) e).code())
        .isEqualTo(ErrorCode.STALE_OBSERVATION);
    long live = run.observe().revision();
    Action fresh = run.action("a2", "read_file", read("app.py"));
    assertThat(fresh.environmentRevision()).isEqualTo(live);
    assertThat(run.apply(fresh).kind()).isEqualTo(StepOutcome.Kind.EXECUTED);
    assertThat(run.state().binding().revision()).isEqualTo(live);
  }

  @Test
  void traceListsTheCommittedEventsInOrder() {
    TaskSpec task = f.task();
    Run run = f.ratchet("w1").start(task, "run-1", ws);
    run.apply(run.action("a1", "read_file", read("app.py")));
    var trace = run.trace();
    assertThat(trace)
        .extracting(e -> e.outcome().wireName())
        .containsExactly("started", "executed");
    assertThat(trace).extracting(TraceEvent::sequence).containsExactly(1L, 2L);
    assertThat(trace.size()).isEqualTo((int) run.state().head(RecordSet.TRACE).count());
  }

  @Test
  void deliverSignsWithTheCallersKeyAndTheRunConsumesIt() {
    TaskSpec task = f.task("write_file");
    Ratchet ratchet = f.ratchet("w1");
    Run run = ratchet.start(task, "run-1", ws);
    Proposal p = run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    var s = run.state();
    Approval a =
        Approval.ofPending(
            "alice",
            s,
            task,
            s.usage().proposals() + 100,
            f.clock.millis() + Duration.ofMinutes(10).toMillis(),
            "nonce-front-door");
    var signed = Ratchet.sign(a, f.approverKey);
    assertThat(ratchet.deliver(signed)).as("the trusted name").isEqualTo("alice");
    assertThat(signed.envelope()).isEqualTo(RuntimeFixture.sign(a.toJson(), f.approverKey));
    assertThat(f.store.inbox(task.taskId(), "run-1")).hasSize(1);
    assertThat(run.execute(p).kind()).isEqualTo(StepOutcome.Kind.EXECUTED);
    assertThat(ws.ledger()).hasSize(1);
  }

  @Test
  void executeTakesTheProposalAndReturnsAReplayAsIs() {
    TaskSpec task = f.task();
    Run run = f.ratchet("w1").start(task, "run-1", ws);
    Proposal p = run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    StepOutcome done = run.execute(p);
    assertThat(done.kind()).isEqualTo(StepOutcome.Kind.EXECUTED);
    Proposal again =
        run.propose(
            p.action()
                .withActionId("a2")
                .withEnvironmentRevision(run.state().binding().revision()));
    assertThat(again.kind()).isEqualTo(Proposal.Kind.REPLAYED);
    assertThat(run.execute(again)).isEqualTo(again.replay());
    assertThat(ws.ledger()).hasSize(1);
  }

  @Test
  void verifyAndResignUseTheAdaptersDeclarationsOnly() {
    TaskSpec task = f.task();
    f.ratchet("w1").start(task, "run-1", ws).close();
    assertThat(f.ratchet("w2").verify(task, "run-1", ws).phase()).isEqualTo(Phase.RUNNING);
    SecretKey next = SecretKey.checkpoint("ckpt-2", new SeededEntropy(9).bytes(32));
    KeyRing rotated = KeyRing.of(next, f.checkpointKey);
    Ratchet r =
        Ratchet.builder()
            .store(f.store)
            .leases(f.leases)
            .checkpointKeys(rotated)
            .approvers(f.approvers)
            .reviewers(f.reviewers)
            .clock(f.clock)
            .entropy(f.entropy)
            .workerId("w3")
            .build();
    long revision = ws.observe().revision();
    assertThat(r.resign(task, "run-1", ws)).isTrue();
    assertThat(r.resign(task, "run-1", ws)).isFalse();
    assertThat(r.verify(task, "run-1", ws).phase()).isEqualTo(Phase.RUNNING);
    assertThat(ws.observe().revision()).isEqualTo(revision);
    assertThat(ws.ledger()).isEmpty();
  }

  @Test
  void withCopiesChangeOneFieldOnly() {
    TaskSpec task = f.task();
    Run run = f.ratchet("w1").start(task, "run-1", ws);
    Action a = run.action("a1", "read_file", read("app.py"));
    JsonObject other = read("other.py");
    assertThat(a.withArguments(other).arguments()).isEqualTo(other);
    assertThat(a.withArguments(other).actionId()).isEqualTo("a1");
    assertThat(a.withEnvironmentRevision(9).environmentRevision()).isEqualTo(9);
    assertThat(a.withDeadlineProposal(7).deadlineProposal()).isEqualTo(7);
    assertThat(a.withActionId("b").actionId()).isEqualTo("b");
    assertThat(a.withActionId("b").withActionId("a1")).isEqualTo(a);
  }
}
