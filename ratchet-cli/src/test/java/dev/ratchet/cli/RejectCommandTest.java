package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ADR 0072: {@code ratchet reject} signs an approver's rejection of the pending, unapproved write
 * and delivers it; the next {@code resume} drops the write without running it and traces the
 * reason. Bad input and a write that cannot be rejected are refused (exit 2).
 */
class RejectCommandTest {
  @TempDir Path dir;
  private MemoryHarness h;
  private Path task;

  @BeforeEach
  void setUp() {
    h = new MemoryHarness(dir, 18);
    assertThat(h.run("keys", "generate").exit()).isZero();
    h.person("approver", "alice");
    task = h.taskFile("t.json", "\"append_file\"", MemoryHarness.PLAN);
  }

  @Test
  void aRejectedWriteIsDroppedWithoutRunningAndTheReasonIsTraced() {
    assertThat(h.run("run", task.toString(), "--run-id", "r1").exit()).isEqualTo(4);
    assertThat(h.workspace.ledger()).hasSize(1); // the fix; the log write waits for approval

    MemoryHarness.Result r =
        h.run("reject", "r1", "--approver", "alice", "--reason", "not this log line");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("rejection of append_file").contains("by alice (key ");
    assertThat(h.run("inspect", "r1", "--json").out()).contains("\"decision\":\"reject\"");

    h.clock.advance(Duration.ofMinutes(1));
    MemoryHarness.Result resumed = h.run("resume", "r1");
    assertThat(resumed.out()).contains("did rejected");
    // A fixed plan proposes the step again: a new intent (new action id, new key) that needs its
    // own approval.
    assertThat(resumed.exit()).isEqualTo(4);
    assertThat(resumed.out() + resumed.err()).contains("waiting for approval of append_file log#");
    assertThat(h.workspace.ledger()).as("the rejected write did not run").hasSize(1);
    assertThat(h.run("trace", "r1", "--json").out())
        .contains("intent_rejected")
        .contains("not this log line");
  }

  @Test
  void badInputIsRefused() {
    MemoryHarness.Result noReason = h.run("reject", "r1", "--approver", "alice");
    assertThat(noReason.exit()).isEqualTo(2);
    assertThat(noReason.err()).contains("--reason");

    MemoryHarness.Result noRun =
        h.run("reject", "nope", "--approver", "alice", "--reason", "x", "--task", "" + task);
    assertThat(noRun.exit()).isNotZero();

    assertThat(h.run("run", task.toString(), "--run-id", "r1").exit()).isEqualTo(4);
    assertThat(h.run("approve", "r1", "--approver", "alice").exit()).isZero();
    h.clock.advance(Duration.ofMinutes(1));
    h.run("resume", "r1"); // consumes the approval and finishes
    MemoryHarness.Result nothing = h.run("reject", "r1", "--approver", "alice", "--reason", "x");
    assertThat(nothing.exit()).isEqualTo(2);
    assertThat(nothing.err()).contains("there is no write to approve");

    MemoryHarness.Result noKey = h.run("reject", "r1", "--approver", "bob", "--reason", "x");
    assertThat(noKey.exit()).isEqualTo(2);
  }
}
