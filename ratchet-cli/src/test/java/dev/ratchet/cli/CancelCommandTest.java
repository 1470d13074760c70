package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Ratchet;
import dev.ratchet.ops.KeyConfig;
import dev.ratchet.ops.TaskFile;
import dev.ratchet.sign.TrustRoot;
import dev.ratchet.testkit.SeededEntropy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17: {@code ratchet cancel} signs an operator's cancel with the operator's own key and
 * delivers it; the next {@code resume} ends the run cancelled, or, with a write pending, freezes it
 * for a reviewer (cancel_requested), and the write never runs.
 */
class CancelCommandTest {
  @TempDir Path dir;
  private MemoryHarness h;
  private Path task;

  @BeforeEach
  void setUp() {
    h = new MemoryHarness(dir, 17);
    assertThat(h.run("keys", "generate").exit()).isZero();
    h.person("approver", "alice");
    h.person("reviewer", "rita");
    h.person("operator", "olga");
    task = h.taskFile("t.json", "\"append_file\"", MemoryHarness.PLAN);
  }

  @Test
  void aRunWithNothingPendingEndsCancelled() {
    TaskFile tf = TaskFile.load(task, h.services.adapters());
    worker().start(tf.task(), "r2", h.workspace).close(); // running, nothing pending, no lease

    MemoryHarness.Result c =
        h.run(
            "cancel", "r2", "--operator", "olga", "--reason", "wrong ticket", "--task", "" + task);
    assertThat(c.exit()).as(c.err()).isZero();
    assertThat(c.out())
        .contains("cancel of run r2 by olga (key ")
        .contains("the run ends cancelled at its next recovery")
        .contains("'ratchet resume r2'");
    assertThat(h.store.inbox("repair-greeting", "r2")).hasSize(1);

    MemoryHarness.Result r = h.run("resume", "r2", "--task", task.toString());
    assertThat(r.exit()).as(r.out() + r.err()).isZero();
    assertThat(r.out())
        .contains("did cancelled")
        .contains("run r2 cancelled (cancelled_by_operator)");
    assertThat(h.store.inbox("repair-greeting", "r2")).as("consumed").isEmpty();
    assertThat(h.run("trace", "r2", "--task", task.toString(), "--json").out())
        .contains("operator_cancelled")
        .contains("wrong ticket");
    assertThat(h.workspace.ledger()).isEmpty();
    // Issue 39: who cancelled and why, where the run is listed.
    MemoryHarness.Result status = h.run("status", "r2", "--task", task.toString());
    assertThat(status.out()).contains("r2: cancelled by olga: wrong ticket");
    assertThat(h.run("status", "r2", "--task", task.toString(), "--json").out())
        .contains("\"cancel\":{\"operator_id\":\"olga\",\"reason\":\"wrong ticket\"}");

    MemoryHarness.Result again = h.run("cancel", "r2", "--operator", "olga", "--task", "" + task);
    assertThat(again.exit()).isEqualTo(2);
    assertThat(again.err()).contains("run r2 is cancelled: there is nothing to cancel");
  }

  @Test
  void aRunWithAPendingWriteFreezesForAReviewerAndTheWriteNeverRuns() {
    assertThat(h.run("run", task.toString(), "--run-id", "r1").exit()).isEqualTo(4);
    assertThat(h.workspace.ledger()).hasSize(1); // the fix; the log write waits for approval
    assertThat(h.run("approve", "r1", "--approver", "alice").exit()).isZero();

    MemoryHarness.Result c = h.run("cancel", "r1", "--operator", "olga");
    assertThat(c.exit()).as(c.err()).isZero();
    assertThat(c.out()).contains("a write is pending").contains("cancel_requested");

    h.clock.advance(Duration.ofMinutes(1));
    MemoryHarness.Result frozen = h.run("resume", "r1");
    assertThat(frozen.exit()).as(frozen.out() + frozen.err()).isEqualTo(4);
    assertThat(frozen.out()).contains("did frozen");
    assertThat(frozen.err()).contains("needs_review (cancel_requested");
    assertThat(h.workspace.ledger()).as("the approved write did not run").hasSize(1);
    assertThat(h.run("status", "r1").out()).contains("r1: cancelled by olga");
    // Issue 39: the review says what each decision will do to this case.
    MemoryHarness.Result show = h.run("review", "show", "r1");
    assertThat(show.exit()).as(show.err()).isZero();
    assertThat(show.out())
        .contains("replan             the pending write's key is quarantined")
        .contains(
            "abort              the run ends failed (cancel_reviewed); the pending write never runs");
    // Issue 39: approving a frozen run says what is pending and who must act, not "no write".
    MemoryHarness.Result approveFrozen = h.run("approve", "r1", "--approver", "alice");
    assertThat(approveFrozen.exit()).isEqualTo(2);
    assertThat(approveFrozen.err())
        .contains("is frozen for review with append_file")
        .contains("ratchet review decide r1")
        .doesNotContain("there is no write to approve");

    MemoryHarness.Result d =
        h.run("review", "decide", "r1", "--decision", "abort", "--reviewer", "rita");
    assertThat(d.exit()).as(d.err()).isZero();
    MemoryHarness.Result ended = h.run("resume", "r1");
    assertThat(ended.exit()).as(ended.out() + ended.err()).isEqualTo(3);
    assertThat(ended.err()).contains("run r1 failed (cancel_reviewed)");
    assertThat(h.workspace.ledger()).hasSize(1);
  }

  @Test
  void aKeyTheOperatorTrustRootLacksIsRefusedWithExitTwoAndNothingIsDelivered() {
    assertThat(h.run("run", task.toString(), "--run-id", "r1").exit()).isEqualTo(4);
    String alice = h.home.resolve("identities/approver/alice.key").toString();
    MemoryHarness.Result c = h.run("cancel", "r1", "--key", alice);
    assertThat(c.exit()).isEqualTo(2);
    assertThat(c.err())
        .contains("operator key ")
        .contains("('alice') is not trusted by this run's trust root")
        .contains("untrusted_signer");
    assertThat(h.store.inbox("repair-greeting", "r1")).isEmpty();
    MemoryHarness.Result none = h.run("cancel", "r1");
    assertThat(none.exit()).isEqualTo(2);
    assertThat(none.err()).contains("--key FILE or --operator NAME");
  }

  private Ratchet worker() {
    return Ratchet.builder()
        .store(h.store)
        .leases(h.store)
        .checkpointKeys(KeyConfig.directoryRing(h.home.resolve("keys")))
        .approvers(TrustRoot.approvers(List.of()))
        .reviewers(TrustRoot.reviewers(List.of()))
        .clock(h.clock)
        .entropy(new SeededEntropy(99))
        .workerId("w-test")
        .build();
  }
}
