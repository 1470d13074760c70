package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.model.Approval;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.model.RunState;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.Waiting;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.store.InboxItem;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Issue 17: the one rule for "what does this run wait for from a person". */
class WaitingTest {
  private final RuntimeFixture f = RuntimeFixture.inMemory(61);
  private final TaskSpec task = f.task("write_file");
  private final InMemoryWorkspace ws = f.workspace();

  private Waiting waiting(RunState s) {
    return Waiting.of(
            s,
            task,
            f.store.inbox(task.taskId(), s.runId()),
            f.clock.millis(),
            f.approvers,
            f.reviewers)
        .orElse(null);
  }

  @Test
  void aPendingWriteWithoutApprovalWaitsForAnApproverUntilOneIsDelivered() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      assertThat(waiting(run.state())).as("nothing pending").isNull();
      run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
      Waiting w = waiting(run.state());
      assertThat(w.what()).isEqualTo(Waiting.For.APPROVAL);
      assertThat(w.what().wireName()).isEqualTo("approval");
      assertThat(w.status()).isEqualTo("awaiting_approval");
      assertThat(w.delivered()).isFalse();
      assertThat(w.hint()).contains("'ratchet approve run-1 --approver NAME'");

      f.approvePending(run, task, Duration.ofHours(1));
      Waiting delivered = waiting(run.state());
      assertThat(delivered.delivered()).isTrue();
      assertThat(delivered.hint()).contains("in the inbox").contains("ratchet resume run-1");
    }
  }

  @Test
  void expiredApprovalEvidenceWaitsForARefreshAndValidEvidenceForNoOne() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
      RunState s = run.state();
      long now = f.clock.millis();
      Approval valid = Approval.ofPending("alice", s, task, 1_000, now + 60_000, "n1");
      assertThat(waiting(withEvidence(s, valid))).as("approved: a worker executes").isNull();
      Approval expired = Approval.ofPending("alice", s, task, 1_000, now, "n2");
      Waiting w = waiting(withEvidence(s, expired));
      assertThat(w.what()).isEqualTo(Waiting.For.APPROVAL_REFRESH);
      assertThat(w.hint()).contains("'ratchet refresh-approval run-1 --approver NAME'");
    }
  }

  @Test
  void aFrozenRunWaitsForAReviewerAndAnEndedOneForNoOne() {
    f.ratchet("w1").start(task, "run-1", ws).close();
    ws.externalWrite("log.txt", "drift\n");
    try (Run run = f.ratchet("w2").resume(task, "run-1", ws)) {
      Waiting w = waiting(run.state());
      assertThat(w.what()).isEqualTo(Waiting.For.REVIEW);
      assertThat(w.status()).isEqualTo("awaiting_review");
      assertThat(w.hint()).contains("ratchet review decide run-1");
    }
    InMemoryWorkspace ws2 = f.workspace();
    f.ratchet("w1").start(task, "run-2", ws2).close();
    f.deliverCancel(task, "run-2", f.operatorKey, "c-1");
    try (Run ended = f.ratchet("w3").resume(task, "run-2", ws2)) {
      assertThat(waiting(ended.state())).isNull();
    }
  }

  @Test
  void onlyAnInboxItemThatVerifiesCountsAsDelivered() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
      RunState s = run.state();
      long until = f.clock.millis() + 60_000;
      // A stranger's key (labelled alice), alice's key claiming bob, and garbage: none counts.
      SigningKey stranger =
          SigningKey.of("alice", dev.ratchet.sign.Ed25519.generate(new SeededEntropy(5)));
      f.deliverApproval(s, Approval.ofPending("alice", s, task, 100, until, "n-1"), stranger);
      f.deliverApproval(s, Approval.ofPending("bob", s, task, 100, until, "n-2"), f.approverKey);
      f.store.deliver(
          s.taskId(), s.runId(), new InboxItem("n-3", InboxItem.Kind.APPROVAL, "{\"x\":1}"));
      // Alice's own approval, but for another run.
      f.deliverApproval(
          s,
          new Approval(
              "alice",
              new dev.ratchet.model.DecisionBinding(
                  s.taskId(),
                  "run-9",
                  task.policyId(),
                  task.policyVersion(),
                  "a1",
                  s.pending().key(),
                  s.pending().intentDigest()),
              "i",
              "f",
              1,
              100,
              until,
              "n-4"),
          f.approverKey);
      assertThat(f.store.inbox(task.taskId(), "run-1")).hasSize(4);
      Waiting w = waiting(s);
      assertThat(w.what()).isEqualTo(Waiting.For.APPROVAL);
      assertThat(w.delivered()).as("nothing that verifies is delivered").isFalse();
      assertThat(w.hint()).contains("an approver signs");

      f.approvePending(run, task, Duration.ofHours(1));
      assertThat(waiting(run.state()).delivered()).isTrue();
    }
  }

  /**
   * Issue 39: an item a worker already refused (its nonce in the run's traced refusals) is never
   * said to wait to be consumed, even when it verifies under this surface's trust root (e.g. a key
   * trusted here after the worker judged it); the hint says it was refused, why, and who acts.
   */
  @Test
  void anItemAWorkerRefusedIsNeverSaidToWaitToBeConsumed() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      run.propose(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
      f.approvePending(run, task, Duration.ofHours(1));
      RunState s = run.state();
      java.util.List<InboxItem> inbox = f.store.inbox(task.taskId(), "run-1");
      assertThat(waiting(s).delivered()).as("verified, judged by no worker yet").isTrue();
      Waiting w =
          Waiting.of(
                  s,
                  task,
                  inbox,
                  f.clock.millis(),
                  f.approvers,
                  f.reviewers,
                  java.util.Map.of(inbox.get(0).nonce(), "untrusted_signer"))
              .orElseThrow();
      assertThat(w.delivered()).isFalse();
      assertThat(w.refused()).isEqualTo("untrusted_signer");
      assertThat(w.hint())
          .contains("an approval in the inbox was refused by a worker (untrusted_signer")
          .contains("'ratchet approve run-1 --approver NAME'")
          .doesNotContain("a worker consumes it");
      Waiting other =
          Waiting.of(
                  s,
                  task,
                  inbox,
                  f.clock.millis(),
                  f.approvers,
                  f.reviewers,
                  java.util.Map.of("another-nonce", "expired"))
              .orElseThrow();
      assertThat(other.delivered()).as("a refusal of another item changes nothing").isTrue();
      assertThat(other.refused()).isNull();
    }
  }

  private static RunState withEvidence(RunState s, Approval a) {
    PendingIntent p = s.pending();
    PendingIntent approved =
        new PendingIntent(
            p.action(),
            p.intentDigest(),
            p.preState(),
            RuntimeFixture.sign(a.toJson(), RuntimeFixture.inMemory(61).approverKey));
    return new RunState(
        s.runId(),
        s.taskId(),
        s.taskVersion(),
        s.taskFingerprint(),
        s.policyId(),
        s.policyVersion(),
        s.phase(),
        s.stopReason(),
        s.cursor(),
        s.usage(),
        s.binding(),
        s.verified(),
        approved,
        s.review(),
        s.sets(),
        s.keySalt());
  }
}
