package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Ratchet;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.model.Approval;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.ops.KeyConfig;
import dev.ratchet.ops.TaskFile;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.sign.Pem;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.store.InboxItem;
import dev.ratchet.testkit.CrashPlan;
import dev.ratchet.testkit.SeededEntropy;
import dev.ratchet.testkit.SimulatedCrash;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Refusals explain themselves (issue 14): for each reason an inbox approval can be refused
 * (untrusted signer, bad signature, expired, wrong binding, replayed nonce), the trace records it
 * with the nonce and key id, {@code resume} prints it, and {@code inspect} (text and {@code
 * --json}) marks the item {@code refused: <reason>}. The write never happens.
 */
class RefusalReasonsTest {
  private static final String TASK_ID = "repair-greeting";

  @TempDir Path dir;
  private MemoryHarness h;
  private SigningKey alice;
  private Path task;

  @BeforeEach
  void waitingForApproval() {
    h = new MemoryHarness(dir, 21);
    assertThat(h.run("keys", "generate").exit()).isZero();
    alice = Pem.readPrivate(Path.of(h.person("approver", "alice")), "alice");
    task = h.taskFile("t.json", "\"append_file\"", MemoryHarness.PLAN);
    assertThat(h.run("run", task.toString(), "--run-id", "r1").exit()).isEqualTo(4);
    assertThat(h.workspace.ledger()).hasSize(1);
  }

  @Test
  void anUntrustedSignerIsRefusedAndSaysSo() {
    // --force delivers what a worker with this trust root refuses.
    assertThat(h.run("keys", "generate", "--role", "approver", "--name", "mallory").exit())
        .isZero();
    String mallory = h.home.resolve("identities/approver/mallory.key").toString();
    MemoryHarness.Result forced = h.run("approve", "r1", "--key", mallory, "--force");
    assertThat(forced.exit()).as(forced.err()).isZero();
    assertThat(forced.err()).contains("warning: approver key").contains("--force");
    String kid = Pem.readPrivate(Path.of(mallory), "mallory").keyId();
    String nonce = text((JsonObject) inbox().get(0), "nonce");
    assertRefused(nonce, kid, "untrusted_signer");
  }

  @Test
  void aBadSignatureIsRefusedAndSaysSo() {
    SignedEnvelope good = SignedEnvelope.sign(approval("n-bad", a -> a).toJson(), alice);
    JsonObject edited =
        good.payload().with("expires_at_ms", new JsonInt(h.clock.millis() + 7_200_001L));
    deliver("n-bad", new SignedEnvelope(edited, good.keyId(), good.signatureEd25519()));
    assertRefused("n-bad", alice.keyId(), "bad_signature");
  }

  @Test
  void anExpiredApprovalIsRefusedAndSaysSo() {
    assertThat(h.run("approve", "r1", "--approver", "alice", "--ttl", "90s").exit()).isZero();
    String nonce = text((JsonObject) inbox().get(0), "nonce");
    h.clock.advance(Duration.ofMinutes(2));
    assertRefused(nonce, alice.keyId(), "expired");
  }

  @Test
  void aWronglyBoundApprovalIsRefusedAndSaysSo() {
    Approval other =
        approval("n-bound", a -> a.with("intent_digest", new JsonString("ee".repeat(32))));
    deliver("n-bound", SignedEnvelope.sign(other.toJson(), alice));
    assertRefused("n-bound", alice.keyId(), "wrong_binding");
  }

  @Test
  void aReplayedNonceIsRefusedAndSaysSo() {
    assertThat(h.run("approve", "r1", "--approver", "alice", "--ttl", "90s").exit()).isZero();
    String nonce = text((JsonObject) inbox().get(0), "nonce");
    // A worker consumes the approval and dies before the adapter call.
    CrashPlan plan = new CrashPlan();
    plan.arm(CrashPoint.AFTER_APPROVAL_COMMIT);
    try {
      worker(plan).resume(TaskFile.load(task, h.services.adapters()).task(), "r1", h.workspace);
    } catch (SimulatedCrash expected) {
      // gone; its lease lapses below, and so does the consumed approval
    }
    assertThat(plan.fired()).containsExactly(CrashPoint.AFTER_APPROVAL_COMMIT);
    h.clock.advance(Duration.ofHours(2));
    // A store whose inbox filter was removed lists the consumed approval again.
    h.store.listConsumedInboxItems(true);
    assertRefused(nonce, alice.keyId(), "replayed_nonce");
  }

  private void assertRefused(String nonce, String keyId, String reason) {
    MemoryHarness.Result resume = h.run("resume", "r1");
    assertThat(resume.exit()).as(resume.out() + resume.err()).isEqualTo(4);
    assertThat(resume.err())
        .contains("waiting for approval")
        .contains("refused " + nonce + " (key " + keyId + "): " + reason + ": ");
    assertThat(h.workspace.ledger()).as("the write never happens").hasSize(1);
    JsonObject view = (JsonObject) Json.parse(h.run("inspect", "r1", "--json").out().strip());
    JsonObject traced = null;
    for (JsonValue e : items(view, "trace")) {
      JsonValue d = ((JsonObject) e).get("detail").orElseThrow();
      if (d instanceof JsonObject o && o.get("refusals").orElse(null) instanceof JsonArray rs) {
        for (JsonValue r : rs.items()) {
          if (text((JsonObject) r, "nonce").equals(nonce)) {
            traced = (JsonObject) r;
          }
        }
      }
    }
    assertThat(traced).as("a trace event names the refused nonce").isNotNull();
    assertThat(text(traced, "key_id")).isEqualTo(keyId);
    assertThat(text(traced, "reason")).isEqualTo(reason);
    JsonObject item =
        items(view, "inbox").stream()
            .map(JsonObject.class::cast)
            .filter(i -> text(i, "nonce").equals(nonce))
            .findFirst()
            .orElseThrow();
    assertThat(text(item, "status")).isEqualTo("refused: " + reason);
    assertThat(text(item, "key_id")).isEqualTo(keyId);
    assertThat(h.run("inspect", "r1").out())
        .contains(nonce + " by ")
        .contains("(key " + keyId + "): refused: " + reason);
  }

  /**
   * An approval of r1's pending write as {@code inspect --json} shows it, edited by {@code edit}.
   */
  private Approval approval(String nonce, UnaryOperator<JsonObject> edit) {
    JsonObject view = (JsonObject) Json.parse(h.run("inspect", "r1", "--json").out().strip());
    JsonObject p = (JsonObject) view.get("pending").orElseThrow();
    JsonObject pre = (JsonObject) p.get("pre_state").orElseThrow();
    JsonObject payload =
        JsonObject.builder()
            .put("approver_id", "alice")
            .put("task_id", TASK_ID)
            .put("run_id", "r1")
            .put("policy_id", "environment-policy")
            .put("policy_version", "v1")
            .put("action_id", text(p, "action_id"))
            .put("idempotency_key", text(p, "idempotency_key"))
            .put("intent_digest", text(p, "intent_digest"))
            .put("environment_instance_id", text(pre, "instance_id"))
            .put("state_fingerprint", text(pre, "state_fingerprint"))
            .put("environment_revision", pre.get("revision").orElseThrow())
            .put("expires_at_proposal", 1000)
            .put("expires_at_ms", h.clock.millis() + 3_600_000L)
            .put("nonce", nonce)
            .build();
    return Approval.fromJson(edit.apply(payload), "approval");
  }

  private void deliver(String nonce, SignedEnvelope env) {
    h.store.deliver(
        TASK_ID,
        "r1",
        new InboxItem(nonce, InboxItem.Kind.APPROVAL, Canonical.string(env.toJson())));
  }

  private List<JsonValue> inbox() {
    JsonObject view = (JsonObject) Json.parse(h.run("inspect", "r1", "--json").out().strip());
    return items(view, "inbox");
  }

  private Ratchet worker(CrashPlan plan) {
    return Ratchet.builder()
        .store(h.store)
        .leases(h.store)
        .checkpointKeys(KeyConfig.directoryRing(h.home.resolve("keys")))
        .approvers(KeyConfig.approvers(h.home.resolve("approvers")))
        .reviewers(KeyConfig.reviewers(h.home.resolve("reviewers")))
        .clock(h.clock)
        .entropy(new SeededEntropy(22))
        .crashSeam(plan)
        .workerId("doomed")
        .build();
  }

  private static List<JsonValue> items(JsonObject o, String key) {
    return ((JsonArray) o.get(key).orElseThrow()).items();
  }

  private static String text(JsonObject o, String key) {
    return dev.ratchet.ops.Views.text(o, key);
  }
}
