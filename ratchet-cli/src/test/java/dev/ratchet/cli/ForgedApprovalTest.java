package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.sign.Ed25519;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.testkit.SeededEntropy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC D19, issue 14: an attacker holding everything a worker's disk holds (its home: checkpoint
 * key, trusted public keys, store, task files) forges approvals of a payment and inserts them into
 * the inbox with plain SQL; every one is refused with its reason and the payment never reaches the
 * reference ledger service. Only the approver's own private key, held outside the worker, pays —
 * exactly once, counted in the service's ledger.
 */
class ForgedApprovalTest {
  @TempDir Path dir;

  @Test
  void anApprovalForgedFromAWorkersDiskIsRefusedAndThePaymentNeverHappens() throws Exception {
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve("worker")));
    c.keys();
    // People keep their private keys on their own machines, not on the worker.
    Path operator = dir.resolve("operator-laptop");
    Files.move(c.home().resolve("identities"), operator);
    Path aliceKey = operator.resolve("approver/alice.key");
    try (ReferenceService svc = ReferenceService.start(c.cwd.resolve("ledger.db"), 0)) {
      JsonObject example =
          (JsonObject) Json.parse(Files.readString(Path.of("../examples/http/acme-orders.json")));
      JsonObject task = (JsonObject) example.get("task").orElseThrow();
      Path taskFile = c.cwd.resolve("orders.json");
      Files.writeString(
          taskFile,
          Canonical.string(
              example.with(
                  "connect",
                  JsonObject.builder()
                      .put("base_url", svc.uri().toString())
                      .put("client_secret_file", svc.clientSecretFile().toString())
                      .build())));
      ProcessCli.Result run = c.run("run", taskFile.toString(), "--run-id", "o1");
      assertThat(run.exit()).as(run.all()).isEqualTo(4);
      assertThat(run.err()).contains("waiting for approval of pay_order");
      assertThat(paid(svc)).isZero();

      // What the attacker reads: the worker's whole home. No private key is in it.
      List<Path> disk;
      try (Stream<Path> files = Files.walk(c.home())) {
        disk = files.filter(Files::isRegularFile).toList();
      }
      for (Path f : disk) {
        assertThat(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1))
            .as(f.toString())
            .doesNotContain("PRIVATE KEY");
      }
      byte[] checkpointKey = ProcessCli.material(c.home().resolve("keys/ckpt-1.key"));
      String aliceId = keyIdOf(c.home().resolve("approvers/alice.pub"));
      JsonObject payload = forgedPayload(c, task);
      SigningKey mallory = SigningKey.of("alice", Ed25519.generate(new SeededEntropy(666)));

      // 1. The old scheme: an HMAC under the checkpoint secret, in an HMAC envelope.
      JsonObject p1 = nonce(payload, "forged-1");
      insert(c, "forged-1", obj("{\"hmac_sha256\":\"" + hmacHex(checkpointKey, p1) + "\"}"), p1);
      // 2. The checkpoint secret's HMAC, twice, in the Ed25519 field under alice's key id.
      JsonObject p2 = nonce(payload, "forged-2");
      byte[] mac = hmac(checkpointKey, Canonical.bytes(p2));
      byte[] doubled = new byte[64];
      System.arraycopy(mac, 0, doubled, 0, 32);
      System.arraycopy(mac, 0, doubled, 32, 32);
      insert(c, "forged-2", envelope(aliceId, Ed25519.encodeSignature(doubled)), p2);
      // 3. The attacker's own Ed25519 key, claiming alice's key id.
      JsonObject p3 = nonce(payload, "forged-3");
      insert(c, "forged-3", envelope(aliceId, mallory.sign(Canonical.bytes(p3))), p3);
      // 4. The attacker's own key under its own id (not in the trust root).
      JsonObject p4 = nonce(payload, "forged-4");
      insert(c, "forged-4", envelope(mallory.keyId(), mallory.sign(Canonical.bytes(p4))), p4);

      ProcessCli.Result refused = c.run("resume", "o1");
      assertThat(refused.exit()).as(refused.all()).isEqualTo(4);
      assertThat(refused.err())
          .contains("refused forged-1 (key unknown): malformed")
          .contains("refused forged-2 (key " + aliceId + "): bad_signature")
          .contains("refused forged-3 (key " + aliceId + "): bad_signature")
          .contains("refused forged-4 (key " + mallory.keyId() + "): untrusted_signer");
      assertThat(paid(svc)).as("the payment never happened").isZero();
      String inspect = c.run("inspect", "o1", "--json").out();
      assertThat(inspect)
          .contains("\"status\":\"refused: bad_signature\"")
          .contains("\"status\":\"refused: untrusted_signer\"");

      // The real approver, with her own key from outside the worker: paid exactly once.
      ProcessCli.Result approve = c.run("approve", "o1", "--key", aliceKey.toString());
      assertThat(approve.exit()).as(approve.all()).isZero();
      assertThat(approve.out()).contains("approving pay_order");
      ProcessCli.Result done = c.run("resume", "o1");
      assertThat(done.exit()).as(done.all()).isZero();
      assertThat(paid(svc)).as("exactly once, in the service's own ledger").isEqualTo(1);
    }
  }

  /** A payload an attacker builds from the store's pending write: exactly bound, fresh. */
  private static JsonObject forgedPayload(ProcessCli c, JsonObject task) {
    JsonObject view = (JsonObject) Json.parse(c.run("inspect", "o1", "--json").out().strip());
    JsonObject p = (JsonObject) view.get("pending").orElseThrow();
    JsonObject pre = (JsonObject) p.get("pre_state").orElseThrow();
    return JsonObject.builder()
        .put("approver_id", "alice")
        .put("task_id", text(task, "task_id"))
        .put("run_id", "o1")
        .put("policy_id", text(task, "policy_id"))
        .put("policy_version", text(task, "policy_version"))
        .put("action_id", text(p, "action_id"))
        .put("idempotency_key", text(p, "idempotency_key"))
        .put("intent_digest", text(p, "intent_digest"))
        .put("environment_instance_id", text(pre, "instance_id"))
        .put("state_fingerprint", text(pre, "state_fingerprint"))
        .put("environment_revision", pre.get("revision").orElseThrow())
        .put("expires_at_proposal", 1000)
        .put("expires_at_ms", 4_102_444_800_000L)
        .put("nonce", "forged")
        .build();
  }

  /** Inserts an inbox row with plain SQL, as {@code sqlite3} would. */
  private static void insert(ProcessCli c, String nonce, JsonObject envelope, JsonObject payload) {
    JsonObject env = envelope.with("payload", payload);
    assertThat(
            StoreDump.update(
                c.store(),
                "INSERT INTO ratchet_inbox (task_id, run_id, nonce, position, kind, envelope)"
                    + " SELECT task_id, run_id, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM"
                    + " ratchet_inbox), 'APPROVAL', ? FROM ratchet_marks WHERE run_id = 'o1'",
                nonce,
                Canonical.string(env)))
        .isEqualTo(1);
  }

  private static JsonObject envelope(String keyId, String signature) {
    return JsonObject.builder().put("key_id", keyId).put("signature_ed25519", signature).build();
  }

  private static long paid(ReferenceService svc) {
    return svc.orders().stream().filter(o -> o.toString().contains("\"status\":\"paid\"")).count();
  }

  private static String keyIdOf(Path pub) throws IOException {
    return dev.ratchet.sign.Pem.readPublic(pub, "alice").keyId();
  }

  private static JsonObject nonce(JsonObject payload, String nonce) {
    return payload.with("nonce", new dev.ratchet.json.JsonString(nonce));
  }

  private static String hmacHex(byte[] key, JsonObject payload) throws Exception {
    return java.util.HexFormat.of().formatHex(hmac(key, Canonical.bytes(payload)));
  }

  private static byte[] hmac(byte[] key, byte[] message) throws Exception {
    Mac m = Mac.getInstance("HmacSHA256");
    m.init(new SecretKeySpec(key, "HmacSHA256"));
    return m.doFinal(message);
  }

  private static JsonObject obj(String json) {
    return (JsonObject) Json.parse(json);
  }

  private static String text(JsonObject o, String key) {
    return dev.ratchet.ops.Views.text(o, key);
  }
}
