package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.schedule.Claim;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39: why a worker parked a started run at claim is on its scheduling row, and {@code status}
 * and {@code inspect} say it under the run (text and JSON); a later claim clears it, and then
 * neither says it any more; so does a {@code ratchet resume} that drove the run by hand, which
 * leaves the row parked or finished as a worker would.
 */
class ClaimReasonStatusTest {
  @TempDir Path dir;

  @Test
  void aStartedRunParkedAtClaimShowsWhyInStatusAndInspectUntilItIsClaimedAgain() {
    MemoryHarness h = new MemoryHarness(dir, 73);
    String why = "parked at claim: CONTRACT: service.revision: expected 7; fix the cause";
    parkedAtClaim(h, why);
    h.clock.advance(Duration.ofSeconds(5));

    assertThat(h.run("status").out()).contains("r1: " + why + " (5000 ms ago)");
    assertThat(h.run("status", "r1", "--json").out())
        .contains("\"scheduling\":{")
        .contains("\"reason\":\"" + why + "\"")
        .contains("\"reason_age_ms\":5000");
    assertThat(h.run("inspect", "r1").out())
        .contains("scheduling row waiting: " + why + " (5000 ms ago)");
    assertThat(h.run("inspect", "r1", "--json").out()).contains("\"reason\":\"" + why + "\"");

    // Woken and claimed again: the claim clears the reason.
    assertThat(h.store.wakeWaiting()).isEqualTo(1);
    Claim again = h.store.claim("w1", Duration.ofSeconds(30)).orElseThrow();
    h.store.release(again.lease());
    assertThat(h.run("status").out()).doesNotContain("parked at claim");
    assertThat(h.run("inspect", "r1").out()).doesNotContain("parked at claim");
    assertThat(h.run("status", "r1", "--json").out()).contains("\"reason\":null");
  }

  @Test
  void aResumeThatDroveTheRunLeavesItsRowAsAWorkerWouldWithoutTheOldReason() {
    MemoryHarness h = new MemoryHarness(dir, 74);
    String why =
        "parked at claim: CONTRACT: service.revision: expected 7; fix the cause, then 'ratchet"
            + " resume r1' drives it by hand";
    parkedAtClaim(h, why);
    assertThat(h.run("status").out()).contains("r1: " + why);

    // The operator follows the hint: the run still waits for its approval, parked as a worker's
    // claim would leave it, and the old reason is gone from status and inspect.
    MemoryHarness.Result resumed = h.run("resume", "r1");
    assertThat(resumed.exit()).as(resumed.out() + resumed.err()).isEqualTo(4);
    assertThat(resumed.out())
        .contains(
            "scheduling row of run r1 is now waiting; the reason an earlier claim left on it is"
                + " cleared");
    assertThat(row(h, "r1").state()).isEqualTo("waiting");
    assertThat(row(h, "r1").reason()).isNull();
    assertThat(h.run("status").out()).doesNotContain("parked at claim");
    assertThat(h.run("status", "r1", "--json").out()).contains("\"reason\":null");
    assertThat(h.run("inspect", "r1").out()).doesNotContain("parked at claim");
    assertThat(h.run("inspect", "r1", "--json").out()).doesNotContain("parked at claim");

    // Approved and resumed to its end: the row is finished as a worker finishes it.
    assertThat(h.run("approve", "r1", "--approver", "alice").exit()).isZero();
    MemoryHarness.Result done = h.run("resume", "r1");
    assertThat(done.exit()).as(done.out() + done.err()).isZero();
    assertThat(done.out()).doesNotContain("scheduling row");
    assertThat(row(h, "r1").state()).isEqualTo("ended");
    assertThat(row(h, "r1").reason()).isNull();
  }

  /**
   * Run r1 started and waiting for an approval, its row parked at claim with {@code why}: what a
   * worker does when the run's resume is refused at claim (Worker, ClaimReasons).
   */
  private static void parkedAtClaim(MemoryHarness h, String why) {
    assertThat(h.run("keys", "generate").exit()).isZero();
    h.person("approver", "alice");
    Path gated = h.taskFile("gated.json", "\"append_file\"", MemoryHarness.PLAN);
    assertThat(h.run("run", gated.toString(), "--run-id", "r1").exit()).isEqualTo(4);
    String task = h.store.runs("r1").get(0).taskId();
    h.store.schedule(task, "r1", "plan", "ref");
    Claim c = h.store.claim("w1", Duration.ofSeconds(30)).orElseThrow();
    assertThat(h.store.park(c, c.lease(), null, why)).isTrue();
    h.store.release(c.lease());
  }

  private static dev.ratchet.schedule.ScheduledRun row(MemoryHarness h, String runId) {
    return h.store.scheduled().stream().filter(r -> r.runId().equals(runId)).findFirst().get();
  }
}
