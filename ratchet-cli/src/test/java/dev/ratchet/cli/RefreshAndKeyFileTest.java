package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Ratchet;
import dev.ratchet.ops.KeyConfig;
import dev.ratchet.ops.TaskFile;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.testkit.CrashPlan;
import dev.ratchet.testkit.SeededEntropy;
import dev.ratchet.testkit.SimulatedCrash;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Expired approval evidence and key files given on the command line, in-process. */
class RefreshAndKeyFileTest {
  @TempDir Path dir;

  @Test
  void expiredApprovalEvidenceIsRefreshedBySignedApprovalAndTheWriteRunsOnce() {
    MemoryHarness h = new MemoryHarness(dir, 11);
    h.run("keys", "generate");
    String alice = h.person("approver", "alice");
    Path task = h.taskFile("t.json", "\"append_file\"", MemoryHarness.PLAN);
    assertThat(h.run("run", task.toString(), "--run-id", "r1").exit()).isEqualTo(4);
    assertThat(h.run("approve", "r1", "--key", alice, "--ttl", "90s").exit()).isZero();

    // A worker consumes the approval and dies before the adapter call (AFTER_APPROVAL_COMMIT).
    h.clock.advance(Duration.ofMinutes(1));
    CrashPlan plan = new CrashPlan();
    plan.arm(CrashPoint.AFTER_APPROVAL_COMMIT);
    Ratchet worker =
        Ratchet.builder()
            .store(h.store)
            .leases(h.store)
            .checkpointKeys(KeyConfig.directoryRing(h.home.resolve("keys")))
            .approvers(KeyConfig.approvers(h.home.resolve("approvers")))
            .reviewers(KeyConfig.reviewers(h.home.resolve("reviewers")))
            .clock(h.clock)
            .entropy(new SeededEntropy(12))
            .crashSeam(plan)
            .workerId("doomed")
            .build();
    TaskFile tf = TaskFile.load(task, h.services.adapters());
    try {
      worker.resume(tf.task(), "r1", h.workspace);
    } catch (SimulatedCrash expected) {
      // the worker is gone; its lease expires below
    }
    assertThat(plan.fired()).containsExactly(CrashPoint.AFTER_APPROVAL_COMMIT);

    // Two hours later the consumed evidence has expired: recovery loads it, execution waits.
    h.clock.advance(Duration.ofHours(2));
    MemoryHarness.Result waiting = h.run("resume", "r1");
    assertThat(waiting.exit()).as(waiting.out() + waiting.err()).isEqualTo(4);
    assertThat(h.run("inspect", "r1").out())
        .contains("approval        by alice")
        .contains("EXPIRED");
    MemoryHarness.Result approve = h.run("approve", "r1", "--key", alice);
    assertThat(approve.exit()).isEqualTo(2);
    assertThat(approve.err()).contains("expired: use 'ratchet refresh-approval r1'");
    assertThat(h.run("refresh-approval", "r1", "--key", alice).exit()).isZero();
    MemoryHarness.Result done = h.run("resume", "r1");
    assertThat(done.exit()).as(done.out() + done.err()).isZero();
    assertThat(h.workspace.ledger()).hasSize(2);
    assertThat(h.run("trace", "r1").out()).contains("approval_refreshed");
  }

  @Test
  void keyFilesOnTheCommandLineRotateToANewFileAndTheOldOneCanGo() throws Exception {
    MemoryHarness h = new MemoryHarness(dir, 13);
    String a = dir.resolve("a.key").toString();
    String b = dir.resolve("b.key").toString();
    MemoryHarness.Result gen = h.run("keys", "generate", "--out", a);
    assertThat(gen.exit()).as(gen.err()).isZero();
    Path task = h.taskFile("t.json", "", MemoryHarness.PLAN);
    assertThat(h.run("run", task.toString(), "--run-id", "r1", "--key-file", a).exit()).isZero();
    assertThat(h.run("keys", "rotate", "--key-file", a).exit()).isEqualTo(2);
    h.clock.advance(Duration.ofMinutes(1));
    MemoryHarness.Result rotate = h.run("keys", "rotate", "--key-file", a, "--new-key-file", b);
    assertThat(rotate.exit()).as(rotate.err()).isZero();
    assertThat(rotate.out()).contains("run r1: re-signed with b");
    assertThat(h.run("verify", "r1", "--key-file", b).out()).contains("signed by key b");
    MemoryHarness.Result old = h.run("verify", "r1", "--key-file", a);
    assertThat(old.exit()).isEqualTo(3);
    assertThat(old.err()).contains("key id 'b' is not trusted");
  }
}
