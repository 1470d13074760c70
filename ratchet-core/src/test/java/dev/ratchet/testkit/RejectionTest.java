package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.Run;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.ApprovalRejection;
import dev.ratchet.model.Phase;
import dev.ratchet.model.RunState;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.outcome.Recovery;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.outcome.StepOutcome.Kind;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.sign.Ed25519;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.store.RecordSet;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * ADR 0072: an approver's signed rejection of a pending write, consumed under the lease, drops the
 * intent (nothing runs), is traced with its reason and its nonce is consumed; a forged or misbound
 * one is refused and changes nothing. A driver may withdraw an unapproved write (e.g. when its
 * approval expired), never an approved one.
 */
class RejectionTest {
  private final RuntimeFixture f = RuntimeFixture.inMemory(43);
  private final TaskSpec task = f.task("write_file");
  private final InMemoryWorkspace ws = f.workspace();

  private String propose(Run run, String actionId) {
    return run.propose(run.action(actionId, "write_file", write("app.py", RuntimeFixture.FIXED)))
        .action()
        .idempotencyKey();
  }

  private void reject(RunState s, SigningKey key, String nonce) {
    f.deliverUnchecked(
        dev.ratchet.Ratchet.sign(
            ApprovalRejection.ofPending(key.label(), s, task, "wrong file", nonce), key));
  }

  @Test
  void aRejectionDropsThePendingWriteTracedWithItsReasonAndNothingRuns() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      String key = propose(run, "a1");
      reject(run.state(), f.approverKey, "reject-1");
      StepOutcome rejected = run.execute("a1");
      assertThat(rejected.kind()).as("a value, not an exception (D32)").isEqualTo(Kind.REJECTED);
      assertThat(((StepOutcome.Rejected) rejected).why())
          .contains("rejected by approver alice: wrong file");
      assertThat(run.outcomeOf("a1").orElseThrow().kind()).isEqualTo(Kind.REJECTED);
      assertThat(run.state().pending()).isNull();
      assertThat(run.state().phase()).isEqualTo(Phase.RUNNING);
      assertThat(ws.effects(key)).isZero();
      TraceEvent last = last(run.trace());
      assertThat(last.outcome().wireName()).isEqualTo("intent_rejected");
      assertThat(last.actionId()).isEqualTo("a1");
      assertThat(last.detail().get("reason").orElseThrow().toString()).contains("wrong file");
      assertThat(f.store.find(task.taskId(), "run-1", RecordSet.NONCES, "reject-1")).isPresent();

      // A new proposal is a new intent with a new key that needs its own approval.
      String again = propose(run, "a2");
      assertThat(again).isNotEqualTo(key);
      RuntimeFixture.awaitingWhy(run.execute("a2"));
      f.approvePending(run, task, Duration.ofHours(1));
      run.execute("a2");
      assertThat(ws.effects(again)).isEqualTo(1);
    }
  }

  @Test
  void aRejectionDeliveredWhileTheWorkerWasDownIsConsumedAtRecovery() {
    Run first = f.ratchet("w1").start(task, "run-1", ws);
    String key = propose(first, "a1");
    RunState s = first.state();
    first.close();
    reject(s, f.approverKey, "reject-1");
    f.clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
    try (Run run = f.ratchet("w2").resume(task, "run-1", ws)) {
      assertThat(run.recovery().did()).isEqualTo(Recovery.Did.REJECTED);
      assertThat(run.recovery().why()).contains("rejected by approver alice: wrong file");
      assertThat(run.state().pending()).isNull();
      assertThat(ws.effects(key)).isZero();
      assertThat(run.trace().stream().map(e -> e.outcome().wireName())).contains("intent_rejected");
    }
  }

  @Test
  void aForgedRejectionIsRefusedAndTheWriteStillWaitsForItsApproval() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      String key = propose(run, "a1");
      SigningKey mallory = SigningKey.of("alice", Ed25519.generate(new SeededEntropy(99)));
      reject(run.state(), mallory, "reject-forged");
      assertThat(RuntimeFixture.awaitingWhy(run.execute("a1"))).contains("reject-forged");
      assertThat(run.state().pending()).isNotNull();
      f.approvePending(run, task, Duration.ofHours(1));
      run.execute("a1");
      assertThat(ws.effects(key)).isEqualTo(1);
    }
  }

  @Test
  void anExpiredApprovalIsReportedAndTheDriverMayWithdrawTheWrite() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      String key = propose(run, "a1");
      f.approvePending(run, task, Duration.ofSeconds(5));
      f.clock.advance(Duration.ofSeconds(10)); // within the lease, past the approval
      StepOutcome missing = run.execute("a1");
      assertThat(missing.kind()).isEqualTo(Kind.AWAITING_APPROVAL);
      assertThat(((StepOutcome.AwaitingApproval) missing).expired()).isTrue();
      StepOutcome.Rejected w = run.withdraw("a1", "approval_expired");
      assertThat(w.detail().get("reason").orElseThrow().toString()).contains("approval_expired");
      assertThat(run.state().pending()).isNull();
      assertThat(last(run.trace()).outcome().wireName()).isEqualTo("intent_withdrawn");
      assertThat(ws.effects(key)).isZero();
    }
  }

  @Test
  void whileTheWriteIsUnapprovedARejectionWinsOverAnApprovalInTheInbox() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      String key = propose(run, "a1");
      f.approvePending(run, task, Duration.ofHours(1));
      reject(run.state(), f.approverKey, "reject-1");
      assertThat(run.execute("a1").kind()).isEqualTo(Kind.REJECTED);
      assertThat(ws.effects(key)).isZero();
    }
  }

  @Test
  void anApprovedWriteCannotBeWithdrawn() {
    CrashSeam crash =
        p -> {
          if (p == CrashPoint.AFTER_APPROVAL_COMMIT) {
            throw new IllegalStateException("crash after the approval commit");
          }
        };
    Run run = f.ratchet("w1", crash).start(task, "run-1", ws);
    propose(run, "a1");
    assertThatThrownBy(() -> run.withdraw("a2", "no such write"))
        .isInstanceOf(RatchetException.class)
        .hasMessageContaining("no pending intent");
    f.approvePending(run, task, Duration.ofHours(1));
    assertThatThrownBy(() -> run.execute("a1")).isInstanceOf(IllegalStateException.class);
    assertThat(run.state().pending().approval()).isNotNull();
    assertThatThrownBy(() -> run.withdraw("a1", "changed my mind"))
        .isInstanceOf(RatchetException.class)
        .hasMessageContaining("only be withdrawn while it waits for its approval");
    assertThat(run.state().pending()).isNotNull();
  }

  private static RatchetException catchRefusal(Runnable r) {
    try {
      r.run();
    } catch (RatchetException e) {
      return e;
    }
    throw new IllegalStateException("expected a refusal");
  }

  private static TraceEvent last(List<TraceEvent> trace) {
    return trace.get(trace.size() - 1);
  }
}
