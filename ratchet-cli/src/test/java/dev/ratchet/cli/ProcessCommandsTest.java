package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.testkit.LeakScan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line as a child process on real SQLite files: exit codes, JSON views, tampering
 * refused, absent stores never created, keys from files and the environment, rotation. Every output
 * of every command is scanned for every key's material at the end.
 */
class ProcessCommandsTest {
  private static final List<ProcessCli> CLIS = new ArrayList<>();
  private static final Map<String, byte[]> SECRETS = new LinkedHashMap<>();

  @TempDir Path dir;

  private ProcessCli cli(String name) throws IOException {
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve(name)));
    CLIS.add(c);
    return c;
  }

  /** Keys for checkpoint, approver alice and reviewer rita; remembered for the leak scan. */
  private static void keys(ProcessCli c) {
    c.keys();
    remember(c);
  }

  /** The same keys made by {@code ratchet keys generate}. */
  private static void generatedKeys(ProcessCli c) {
    assertThat(c.run("keys", "generate").exit()).isZero();
    assertThat(c.run("keys", "generate", "--role", "approver", "--name", "alice").exit()).isZero();
    assertThat(c.run("keys", "generate", "--role", "reviewer", "--name", "rita").exit()).isZero();
    for (String role : List.of("approver", "reviewer")) {
      String name = role.equals("approver") ? "alice" : "rita";
      Path pub = c.home().resolve("identities/" + role + "/" + name + ".pub");
      assertThat(c.run("keys", "trust", "--role", role, pub.toString()).exit()).isZero();
    }
    remember(c);
  }

  private static void remember(ProcessCli c) {
    secret(c, "keys/ckpt-1.key");
    secret(c, "identities/approver/alice.key");
    secret(c, "identities/reviewer/rita.key");
  }

  private static void secret(ProcessCli c, String rel) {
    Path f = c.home().resolve(rel);
    SECRETS.put(f.toString(), ProcessCli.material(f));
  }

  @AfterAll
  static void noKeyMaterialAppearsInAnyOutputInAnyEncoding() {
    assertThat(SECRETS).isNotEmpty();
    LeakScan scan = LeakScan.of(SECRETS);
    int outputs = 0;
    for (ProcessCli c : CLIS) {
      for (String o : c.outputs) {
        scan.check("output " + outputs++, o);
      }
    }
    assertThat(outputs).isPositive();
    assertThat(scan.findings()).isEmpty();
  }

  @Test
  void aRunCompletesAndEveryViewIsVerifiedJson() throws IOException {
    ProcessCli c = cli("views");
    generatedKeys(c);
    Path task = c.exampleTask("greeting", null);
    ProcessCli.Result run = c.run("run", task.toString(), "--run-id", "r1");
    assertThat(run.exit()).as(run.all()).isZero();
    assertThat(run.out()).contains("step 6/6").endsWith("run r1 completed (verified_outcome)\n");

    JsonObject status = json(c.run("status", "--json"));
    JsonObject r1 = (JsonObject) array(status, "runs").get(0);
    assertThat(text(r1, "run_id")).isEqualTo("r1");
    assertThat(text(r1, "verified")).isEqualTo("true");
    assertThat(text(r1, "phase")).isEqualTo("completed");
    assertThat(text(r1, "stop_reason")).isEqualTo("verified_outcome");
    assertThat(text(r1, "cursor")).isEqualTo("6");
    assertThat(text(r1, "pending")).isEqualTo("");

    JsonObject inspect = json(c.run("inspect", "r1", "--json"));
    assertThat(array(inspect, "receipts")).hasSize(2);
    assertThat(text(inspect, "checkpoint_key_id")).isEqualTo("ckpt-1");
    assertThat(array(inspect, "quarantined_keys")).isEmpty();
    List<JsonValue> events = array(inspect, "trace");
    assertThat(text((JsonObject) events.get(events.size() - 1), "outcome")).isEqualTo("completed");

    JsonObject trace = json(c.run("trace", "r1", "--verify", "--json"));
    assertThat(text(trace, "chain_verified")).isEqualTo("true");
    assertThat(array(trace, "events")).hasSize(events.size());

    ProcessCli.Result verify = c.run("verify", "r1");
    assertThat(verify.exit()).as(verify.all()).isZero();
    assertThat(verify.out()).contains("verified at generation").contains("Nothing was executed");

    JsonObject keys = json(c.run("keys", "list", "--json"));
    assertThat(Canonical.string(keys))
        .contains(
            "\"id\":\"ckpt-1\",\"mode\":\"rw-------\",\"role\":\"checkpoint\",\"runs_signed\":1,\"status\":\"active\"");
    assertThat(array(json(c.run("review", "list", "--json")), "cases")).isEmpty();

    // Usage and input errors are exit 2 and change nothing.
    String before = StoreDump.of(c.store());
    assertThat(c.run("resume", "no-such-run").exit()).isEqualTo(2);
    assertThat(c.run("status", "--bogus").exit()).isEqualTo(2);
    assertThat(c.run().exit()).isEqualTo(2);
    assertThat(c.run("approve", "r1", "--approver", "alice").exit()).isEqualTo(2);
    ProcessCli.Result typo = c.run("status", "--store", "postgres://localhost/ratchet");
    assertThat(typo.exit()).isEqualTo(2);
    assertThat(typo.err()).contains("--store").contains("sqlite:PATH");
    // Nothing listens on port 1: an unreachable store is exit 5, never "no runs".
    ProcessCli.Result down = c.run("status", "--store", "jdbc:postgresql://127.0.0.1:1/ratchet");
    assertThat(down.exit()).isEqualTo(5);
    assertThat(StoreDump.of(c.store())).isEqualTo(before);
  }

  @Test
  void anApprovalGatedWriteStopsWithExitFourUntilASignedApprovalArrives() throws IOException {
    ProcessCli c = cli("approval");
    keys(c);
    ProcessCli.Result run =
        c.run("run", c.exampleTask("gated", "write_file").toString(), "--run-id", "r1");
    assertThat(run.exit()).as(run.all()).isEqualTo(4);
    assertThat(run.err())
        .contains("waiting for approval of write_file fix-app#2")
        .contains("ratchet approve r1");
    JsonObject pending =
        (JsonObject)
            ((JsonObject) array(json(c.run("status", "--json")), "runs").get(0))
                .get("pending")
                .orElseThrow();
    assertThat(text(pending, "action_id")).isEqualTo("fix-app#2");
    assertThat(text(pending, "idempotency_key")).hasSize(32);
    assertThat(text(pending, "approval")).isEmpty();

    ProcessCli.Result approve = c.run("approve", "r1", "--approver", "alice", "--ttl", "1h");
    assertThat(approve.exit()).as(approve.all()).isZero();
    assertThat(c.run("refresh-approval", "r1", "--approver", "alice").exit()).isEqualTo(2);
    ProcessCli.Result resume = c.run("resume", "r1");
    assertThat(resume.exit()).as(resume.all()).isZero();
    assertThat(resume.out())
        .contains("found intent_without_effect, did executed_once")
        .contains("completed");
    JsonObject inspect = json(c.run("inspect", "r1", "--json"));
    assertThat(array(inspect, "consumed_nonces")).hasSize(1);
    assertThat(array(inspect, "inbox")).isEmpty();
  }

  @Test
  void aCheckpointAlteredThroughSqlIsRefusedByVerifyAndResumeAndNothingChanges()
      throws IOException {
    ProcessCli c = cli("tamper");
    keys(c);
    assertThat(c.run("run", c.exampleTask("t", "write_file").toString(), "--run-id", "r1").exit())
        .isEqualTo(4);
    assertThat(c.run("approve", "r1", "--approver", "alice").exit()).isZero();
    Path app = c.cwd.resolve("ws-t/app.py");
    String appBefore = Files.readString(app);
    String digest =
        StoreDump.query(c.store(), "SELECT content_digest FROM ratchet_marks WHERE run_id = 'r1'");
    String body =
        StoreDump.query(
            c.store(), "SELECT body FROM ratchet_checkpoints WHERE content_digest = ?", digest);
    assertThat(body).contains("\"cursor\":1");
    String edited = body.replace("\"cursor\":1", "\"cursor\":0");

    // 1. The blob alone is edited: the content no longer matches the mark's digest.
    StoreDump.update(
        c.store(),
        "UPDATE ratchet_checkpoints SET body = ? WHERE content_digest = ?",
        edited,
        digest);
    refusedAndUnchanged(c, app, appBefore);

    // 2. Payload edited, its plain checksum and every store digest recomputed: the store is
    // consistent and the checksum matches, but the HMAC does not.
    JsonObject envelope = (JsonObject) Json.parse(body);
    JsonObject payload =
        ((JsonObject) envelope.get("payload").orElseThrow())
            .with("cursor", new dev.ratchet.json.JsonInt(0));
    edited =
        Canonical.string(
            envelope
                .with("payload", payload)
                .with("checksum", new dev.ratchet.json.JsonString(Canonical.sha256Hex(payload))));
    String forged = HexFormat.of().formatHex(sha256(edited));
    replaceCheckpoint(c, digest, forged, edited);
    ProcessCli.Result verify = refusedAndUnchanged(c, app, appBefore);
    assertThat(verify.err()).contains("HMAC");
    ProcessCli.Result status = c.run("status");
    assertThat(status.exit()).isEqualTo(3);
    assertThat(status.out()).contains("REFUSED");

    // Restored, the run verifies and completes: the refusals left nothing behind.
    replaceCheckpoint(c, forged, digest, body);
    assertThat(c.run("verify", "r1").exit()).isZero();
    assertThat(c.run("resume", "r1").exit()).isZero();
  }

  /**
   * Rewrites the checkpoint stored under digest {@code from} as {@code body} under digest {@code
   * to}, and points the mark and the generation log at {@code to}: a consistent store.
   */
  private static void replaceCheckpoint(ProcessCli c, String from, String to, String body) {
    StoreDump.update(
        c.store(),
        "UPDATE ratchet_checkpoints SET body = ?, content_digest = ? WHERE content_digest = ?",
        body,
        to,
        from);
    for (String table : List.of("ratchet_marks", "ratchet_generations")) {
      StoreDump.update(
          c.store(),
          "UPDATE " + table + " SET content_digest = ? WHERE content_digest = ?",
          to,
          from);
    }
  }

  private static ProcessCli.Result refusedAndUnchanged(ProcessCli c, Path app, String appBefore)
      throws IOException {
    String before = StoreDump.of(c.store());
    ProcessCli.Result verify = c.run("verify", "r1");
    assertThat(verify.exit()).as(verify.all()).isEqualTo(3);
    assertThat(verify.err()).startsWith("error [CHECKPOINT]").contains("what to do:");
    ProcessCli.Result resume = c.run("resume", "r1");
    assertThat(resume.exit()).as(resume.all()).isEqualTo(3);
    assertThat(StoreDump.of(c.store())).isEqualTo(before);
    assertThat(Files.readString(app)).isEqualTo(appBefore);
    return verify;
  }

  @Test
  void aMissingStoreIsUnavailableAndIsNeverCreated() throws IOException {
    ProcessCli c = cli("absent");
    keys(c);
    for (String[] args :
        List.of(
            new String[] {"resume", "r1"},
            new String[] {"status"},
            new String[] {"verify", "r1", "--store", "sqlite:elsewhere/ratchet.db"})) {
      ProcessCli.Result r = c.run(args);
      assertThat(r.exit()).as(r.all()).isEqualTo(5);
      assertThat(r.err()).startsWith("error [STORE_UNAVAILABLE]").contains("what to do:");
    }
    assertThat(c.store()).doesNotExist();
    assertThat(c.cwd.resolve("elsewhere")).doesNotExist();
  }

  @Test
  void theCheckpointKeyCanComeFromTheEnvironmentAndAWrongKeyIsRefused() throws IOException {
    ProcessCli c = cli("env");
    byte[] key = new byte[32];
    new java.util.Random(5).nextBytes(key);
    SECRETS.put("RATCHET_CHECKPOINT_KEY", key);
    c.env.put("RATCHET_CHECKPOINT_KEY", "hex:" + HexFormat.of().formatHex(key));
    c.env.put("RATCHET_CHECKPOINT_KEY_ID", "env-key");
    ProcessCli.Result run = c.run("run", c.exampleTask("e", null).toString(), "--run-id", "r1");
    assertThat(run.exit()).as(run.all()).isZero();
    assertThat(c.run("verify", "r1").out()).contains("signed by key env-key");

    byte[] wrong = key.clone();
    wrong[0] ^= 1;
    SECRETS.put("wrong RATCHET_CHECKPOINT_KEY", wrong);
    c.env.put(
        "RATCHET_CHECKPOINT_KEY", "base64:" + java.util.Base64.getEncoder().encodeToString(wrong));
    ProcessCli.Result refused = c.run("verify", "r1");
    assertThat(refused.exit()).as(refused.all()).isEqualTo(3);
    assertThat(refused.err()).contains("HMAC does not verify under key id 'env-key'");

    c.env.clear();
    ProcessCli.Result none = c.run("verify", "r1");
    assertThat(none.exit()).isEqualTo(2);
    assertThat(none.err()).contains("no checkpoint key").contains("keys generate");
  }

  @Test
  void rotationReSignsEveryRunOnSqliteAndTheOldKeyCanThenBeRemoved() throws IOException {
    ProcessCli c = cli("rotate");
    keys(c);
    assertThat(c.run("run", c.exampleTask("a", null).toString(), "--run-id", "a").exit()).isZero();
    assertThat(c.run("run", c.exampleTask("b", "write_file").toString(), "--run-id", "b").exit())
        .isEqualTo(4);
    ProcessCli.Result rotate = c.run("keys", "rotate");
    assertThat(rotate.exit()).as(rotate.all()).isZero();
    assertThat(rotate.out())
        .contains("run a: re-signed with ckpt-2")
        .contains("run b: re-signed with ckpt-2");
    secret(c, "keys/ckpt-2.key");
    String keys = Canonical.string(json(c.run("keys", "list", "--json")));
    assertThat(keys)
        .contains(
            "\"id\":\"ckpt-1\",\"mode\":\"rw-------\",\"role\":\"checkpoint\",\"runs_signed\":0,\"status\":\"verifies\"");
    assertThat(keys)
        .contains(
            "\"id\":\"ckpt-2\",\"mode\":\"rw-------\",\"role\":\"checkpoint\",\"runs_signed\":2,\"status\":\"active\"");
    Files.delete(c.home().resolve("keys/ckpt-1.key"));
    assertThat(c.run("verify", "a").exit()).isZero();
    // The pending write stayed pending through the rotation; it still needs its approval.
    assertThat(c.run("resume", "b").exit()).isEqualTo(4);
    assertThat(Files.readString(c.cwd.resolve("ws-b/app.py"))).contains("print(greeting()\n");
  }

  @Test
  void theHttpExamplePlacesEachOrderOnceAgainstTheReferenceService() throws IOException {
    ProcessCli c = cli("http");
    keys(c);
    try (dev.ratchet.harness.ledger.ReferenceService svc =
        dev.ratchet.harness.ledger.ReferenceService.start(c.cwd.resolve("ledger.db"), 0)) {
      JsonObject example =
          (JsonObject) Json.parse(Files.readString(Path.of("../examples/http/acme-orders.json")));
      Path task = c.cwd.resolve("orders.json");
      Files.writeString(
          task,
          Canonical.string(
              example.with(
                  "connect",
                  JsonObject.builder()
                      .put("base_url", svc.uri().toString())
                      .put("client_secret_file", svc.clientSecretFile().toString())
                      .build())));
      ProcessCli.Result run = c.run("run", task.toString(), "--run-id", "o1");
      assertThat(run.exit()).as(run.all()).isEqualTo(4);
      assertThat(run.err()).contains("waiting for approval of pay_order pay-widgets#3");
      assertThat(c.run("approve", "o1", "--approver", "alice").exit()).isZero();
      ProcessCli.Result resume = c.run("resume", "o1");
      assertThat(resume.exit()).as(resume.all()).isZero();
      assertThat(resume.out()).contains("run o1 completed (verified_outcome)");
      // The service's own ledger: two orders, each placed once, the first one paid.
      assertThat(svc.orders()).hasSize(2);
      assertThat(svc.orders().get(0).toString()).contains("\"status\":\"paid\"");
    }
  }

  static JsonObject json(ProcessCli.Result r) {
    assertThat(r.exit()).as(r.all()).isZero();
    return (JsonObject) Json.parse(r.out().strip());
  }

  static List<JsonValue> array(JsonObject o, String key) {
    return ((JsonArray) o.get(key).orElseThrow()).items();
  }

  static String text(JsonObject o, String key) {
    return dev.ratchet.ops.Views.text(o, key);
  }

  private static byte[] sha256(String s) {
    try {
      return java.security.MessageDigest.getInstance("SHA-256")
          .digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
