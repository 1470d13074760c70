package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import dev.ratchet.store.Fence;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Command flows in-process on the in-memory store: run, approve, review, rotate. */
class CommandFlowTest {
  @TempDir Path dir;

  private MemoryHarness h() {
    MemoryHarness h = new MemoryHarness(dir, 7);
    assertThat(h.run("keys", "generate").exit()).isZero();
    h.person("approver", "alice");
    h.person("reviewer", "rita");
    return h;
  }

  @Test
  void runFollowsThePlanToAVerifiedCompletion() {
    MemoryHarness h = h();
    MemoryHarness.Result r =
        h.run("run", h.taskFile("t.json", "", MemoryHarness.PLAN).toString(), "--run-id", "r1");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("step 4/4").contains("run r1 completed (verified_outcome)");
    assertThat(h.workspace.ledger()).hasSize(2);

    MemoryHarness.Result status = h.run("status", "--json");
    assertThat(status.exit()).as(status.err()).isZero();
    JsonObject run =
        (JsonObject)
            ((JsonArray) ((JsonObject) Json.parse(status.out().strip())).get("runs").orElseThrow())
                .get(0);
    assertThat(run.get("phase").orElseThrow().toString()).isEqualTo("\"completed\"");
    assertThat(h.run("verify", "r1").exit()).isZero();
    assertThat(h.run("trace", "r1", "--verify").out()).contains("hash chains verified");
    assertThat(h.run("inspect", "r1").out()).contains("receipts (2)");
  }

  @Test
  void anApprovalGatedWriteWaitsForASignedApprovalThenCompletes() {
    MemoryHarness h = h();
    Path task = h.taskFile("t.json", "\"append_file\"", MemoryHarness.PLAN);
    MemoryHarness.Result r = h.run("run", task.toString(), "--run-id", "r1");
    assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(4);
    assertThat(r.err()).contains("waiting for approval").contains("ratchet approve r1");
    assertThat(h.workspace.ledger()).hasSize(1);

    MemoryHarness.Result a = h.run("approve", "r1", "--approver", "alice");
    assertThat(a.exit()).as(a.err()).isZero();
    assertThat(a.out()).contains("delivered to run r1");

    h.clock.advance(Duration.ofMinutes(1));
    MemoryHarness.Result resumed = h.run("resume", "r1");
    assertThat(resumed.exit()).as(resumed.err()).isZero();
    assertThat(resumed.out()).contains("completed");
    assertThat(h.workspace.ledger()).hasSize(2);
  }

  @Test
  void aReceiptConflictFreezesAndASignedReplanCompletesWithANewKey() {
    MemoryHarness h = h();
    Path task = h.taskFile("t.json", "\"append_file\"", MemoryHarness.PLAN);
    assertThat(h.run("run", task.toString(), "--run-id", "r1").exit()).isEqualTo(4);
    // Another client uses the run's pending key for a different intent at the adapter.
    String key = pendingKey(h);
    h.workspace.execute(
        new WriteIntent(
            "memory-workspace", "append_file", write("log.txt", "evil\n"), "irreversible_write"),
        key,
        new Fence("other", "intruder", 1),
        ApprovalBinding.NONE);
    h.run("approve", "r1", "--approver", "alice");
    h.clock.advance(Duration.ofMinutes(1));
    MemoryHarness.Result frozen = h.run("resume", "r1");
    assertThat(frozen.exit()).as(frozen.out() + frozen.err()).isEqualTo(4);
    assertThat(frozen.err()).contains("needs_review").contains("review decide");
    assertThat(h.run("review", "list").out()).contains("receipt_intent_conflict");
    assertThat(h.run("review", "show", "r1").out()).contains(key);

    MemoryHarness.Result d =
        h.run("review", "decide", "r1", "--decision", "replan", "--reviewer", "rita");
    assertThat(d.exit()).as(d.err()).isZero();
    h.clock.advance(Duration.ofMinutes(1));
    MemoryHarness.Result replanned = h.run("resume", "r1");
    assertThat(replanned.exit()).as(replanned.out() + replanned.err()).isEqualTo(4);
    assertThat(replanned.out()).contains("review: replan by rita applied");
    assertThat(pendingKey(h)).isNotEqualTo(key);
    h.run("approve", "r1", "--approver", "alice");
    h.clock.advance(Duration.ofMinutes(1));
    MemoryHarness.Result done = h.run("resume", "r1");
    assertThat(done.exit()).as(done.out() + done.err()).isZero();
    assertThat(h.run("inspect", "r1").out()).contains("quarantined keys (1)").contains(key);
  }

  @Test
  void rotationReSignsEveryRunAndTheOldKeyCanThenGo() throws Exception {
    MemoryHarness h = h();
    assertThat(
            h.run("run", h.taskFile("t.json", "", MemoryHarness.PLAN).toString(), "--run-id", "r1")
                .exit())
        .isZero();
    h.clock.advance(Duration.ofMinutes(1));
    MemoryHarness.Result r = h.run("keys", "rotate");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("run r1: re-signed with ckpt-2");
    assertThat(h.run("keys", "list").out()).contains("ckpt-2").contains("active");
    java.nio.file.Files.delete(h.home.resolve("keys/ckpt-1.key"));
    assertThat(h.run("verify", "r1").exit()).isZero();
  }

  private static String pendingKey(MemoryHarness h) {
    JsonObject v = (JsonObject) Json.parse(h.run("inspect", "r1", "--json").out().strip());
    JsonObject p = (JsonObject) v.get("pending").orElseThrow();
    return ((dev.ratchet.json.JsonString) p.get("idempotency_key").orElseThrow()).value();
  }

  private static JsonObject write(String path, String content) {
    return JsonObject.builder().put("path", path).put("content", content).build();
  }
}
