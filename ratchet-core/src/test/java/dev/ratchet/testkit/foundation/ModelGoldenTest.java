package dev.ratchet.testkit.foundation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.Run;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.testkit.Rules;
import dev.ratchet.testkit.RuntimeFixture;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Golden canonical bytes and digests of the model (SPEC D2, D3, §1, §6, §8). Each golden value was
 * produced once by the code and then checked by hand and by an independent computation: the
 * expected canonical text is written out here from the SPEC's field sets (keys sorted by hand), and
 * its SHA-256 is recomputed with the JDK's {@link MessageDigest} (and agreed with Python's
 * json/hashlib when the goldens were written). The evidence records (approval, review decision,
 * pending intent) are pinned in {@link ApprovalGoldenTest}; task validation is in {@link
 * TaskValidationTest}.
 */
class ModelGoldenTest {
  static final String KEY = "0123456789abcdef0123456789abcdef";
  static final String FP_BEFORE = "aa".repeat(32);
  static final String FP_AFTER = "bb".repeat(32);
  static final String APPROVAL_FP = "cc".repeat(32);
  static final String STATE_FP = "dd".repeat(32);
  static final String OTHER_DIGEST = "ee".repeat(32);

  static final JsonObject ARGS =
      JsonObject.builder().put("path", "app.py").put("content", "print('ready')\n").build();

  static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  static void contract(ThrowingCallable call, String rule) {
    Throwable t = catchThrowable(call);
    assertThat(t).isInstanceOf(RatchetException.class);
    assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.CONTRACT);
    assertThat(t.getMessage()).contains(rule);
  }

  // ---------------------------------------------------------------- D2 intent digest

  static final WriteIntent INTENT =
      new WriteIntent("memory-workspace", "write_file", ARGS, "reversible_write");
  static final String INTENT_CANONICAL =
      "{\"arguments\":{\"content\":\"print('ready')\\n\",\"path\":\"app.py\"},"
          + "\"kind\":\"write_file\",\"namespace\":\"memory-workspace\",\"risk\":\"reversible_write\"}";
  static final String INTENT_DIGEST =
      "a99642fdef6c804015f35fdfab822799368eb02ed37b36ae332d4a11f96dfca5";

  @Test
  @Rules("R1.4-intent-digest")
  void theIntentDigestIsSha256OfCanonicalNamespaceKindArgumentsRisk() {
    assertThat(Canonical.string(INTENT.toJson())).isEqualTo(INTENT_CANONICAL);
    assertThat(Json.parse(INTENT_CANONICAL).equals(INTENT.toJson())).isTrue();
    assertThat(((JsonObject) Json.parse(INTENT_CANONICAL)).members().keySet())
        .containsExactlyInAnyOrder("namespace", "kind", "arguments", "risk");
    assertThat(sha256(INTENT_CANONICAL)).isEqualTo(INTENT_DIGEST);
    assertThat(INTENT.digest()).isEqualTo(INTENT_DIGEST);
    // Each of the four fields is covered.
    List<WriteIntent> variants =
        List.of(
            new WriteIntent("other-adapter", "write_file", ARGS, "reversible_write"),
            new WriteIntent("memory-workspace", "append_file", ARGS, "reversible_write"),
            new WriteIntent(
                "memory-workspace",
                "write_file",
                ARGS.with("path", new JsonString("b.py")),
                "reversible_write"),
            new WriteIntent("memory-workspace", "write_file", ARGS, "irreversible_write"));
    Set<String> digests = new HashSet<>();
    digests.add(INTENT_DIGEST);
    variants.forEach(v -> digests.add(v.digest()));
    assertThat(digests).hasSize(5);
  }

  @Test
  @Rules("R1.4-intent-digest")
  void theRuntimeDigestExcludesActionIdKeyRevisionAndRunIdentity() {
    RuntimeFixture f = RuntimeFixture.inMemory(41);
    TaskSpec task = f.task();
    List<String> digests = new ArrayList<>();
    List<String> keys = new ArrayList<>();
    for (String runId : List.of("run-1", "run-2")) {
      Run run = f.ratchet("w-" + runId).start(task, runId, f.workspace());
      // Another action id, another run, another environment instance: the same intent.
      Proposal p = run.propose(run.action("id-" + runId, "write_file", ARGS));
      digests.add(run.state().pending().intentDigest());
      keys.add(p.action().idempotencyKey());
      run.close();
    }
    assertThat(digests).containsOnly(INTENT_DIGEST);
    assertThat(keys.get(0)).isNotEqualTo(keys.get(1));
  }

  // ---------------------------------------------------------------- D3 receipt fingerprint

  static final Receipt RECEIPT =
      new Receipt(
          "memory-workspace",
          1,
          "rcpt-0001",
          KEY,
          INTENT_DIGEST,
          JsonObject.builder().put("path", "app.py").put("bytes", 15).build(),
          1,
          2,
          FP_BEFORE,
          FP_AFTER,
          1_784_365_200_000L, // 2026-07-18T09:00:00Z
          "run-1",
          1,
          APPROVAL_FP,
          null);
  static final String RECEIPT_CANONICAL =
      "{\"adapter_version\":1,"
          + "\"approval_fingerprint\":\""
          + APPROVAL_FP
          + "\",\"business_id\":null,"
          + "\"committed_at_ms\":1784365200000,"
          + "\"fence_lease_version\":1,"
          + "\"fence_run_id\":\"run-1\","
          + "\"fingerprint_after\":\""
          + FP_AFTER
          + "\",\"fingerprint_before\":\""
          + FP_BEFORE
          + "\",\"idempotency_key\":\""
          + KEY
          + "\",\"intent_digest\":\""
          + INTENT_DIGEST
          + "\",\"namespace\":\"memory-workspace\","
          + "\"receipt_id\":\"rcpt-0001\","
          + "\"result\":{\"bytes\":15,\"path\":\"app.py\"},"
          + "\"revision_after\":2,"
          + "\"revision_before\":1}";
  static final String RECEIPT_FINGERPRINT =
      "7cfc103a5f2dc09aed5fbe068231486f099682262617ede40a20d0e174fde158";

  @Test
  @Rules("R1.4-receipt-fingerprint")
  void theReceiptFingerprintIsSha256OfIdempotencyKeyAndTheWholeReceipt() {
    assertThat(Canonical.string(RECEIPT.toJson())).isEqualTo(RECEIPT_CANONICAL);
    String d3 = "{\"idempotency_key\":\"" + KEY + "\",\"receipt\":" + RECEIPT_CANONICAL + "}";
    assertThat(sha256(d3)).isEqualTo(RECEIPT_FINGERPRINT);
    assertThat(RECEIPT.fingerprint()).isEqualTo(RECEIPT_FINGERPRINT);
    assertThat(Receipt.fromJson(Json.parse(RECEIPT_CANONICAL), "receipt")).isEqualTo(RECEIPT);
  }

  @Test
  @Rules("R1.4-receipt-fingerprint")
  void everyReceiptFieldChangesTheFingerprint() {
    JsonObject base = RECEIPT.toJson();
    List<JsonObject> variants = new ArrayList<>();
    for (String field : base.members().keySet()) {
      variants.add(base.with(field, changed(field, base)));
    }
    Set<String> fingerprints = new HashSet<>();
    fingerprints.add(RECEIPT_FINGERPRINT);
    for (JsonObject v : variants) {
      fingerprints.add(Receipt.fromJson(v, "receipt").fingerprint());
    }
    assertThat(variants).hasSize(15);
    assertThat(fingerprints).as("one distinct fingerprint per changed field").hasSize(16);
  }

  private static dev.ratchet.json.JsonValue changed(String field, JsonObject base) {
    dev.ratchet.json.JsonValue v = base.members().get(field);
    if (v instanceof JsonInt i) {
      return new JsonInt(i.value() + 1);
    }
    if (v instanceof JsonObject o) {
      return o.with("extra", new JsonInt(0));
    }
    if (field.contains("fingerprint") || field.contains("digest")) {
      return new JsonString("99".repeat(32));
    }
    if (field.equals("business_id")) {
      return new JsonString("order-1");
    }
    return new JsonString(((JsonString) v).value() + "x");
  }

  // ---------------------------------------------------------------- task fingerprint

  static TaskSpec task(Budgets budgets, Set<String> approvalRequired) {
    return new TaskSpec(
        "repair-greeting",
        "2026-07-18-v1",
        "environment-policy",
        "v1",
        "memory-workspace",
        Set.of("workspace.read", "workspace.write", "tests.run"),
        Set.of("read_file", "write_file", "append_file", "run_tests"),
        Set.of("app.py", "log.txt", "unit"),
        approvalRequired,
        budgets,
        JsonObject.builder()
            .put("files", JsonObject.builder().put("app.py", "print('hello'\n").build())
            .build(),
        JsonObject.builder()
            .put("expected_files", JsonObject.builder().put("app.py", "print('ready')\n").build())
            .build());
  }

  static final TaskSpec TASK =
      task(new Budgets(500, 100, 86_400_000L, 1_000_000), Set.of("write_file"));
  static final String TASK_CANONICAL =
      "{\"action_kinds\":[\"append_file\",\"read_file\",\"run_tests\",\"write_file\"],"
          + "\"adapter\":\"memory-workspace\","
          + "\"approval_required\":[\"write_file\"],"
          + "\"budgets\":{\"max_cost\":1000000,\"max_proposals\":500,\"max_steps\":100,"
          + "\"max_wall_time_ms\":86400000},"
          + "\"environment\":{\"files\":{\"app.py\":\"print('hello'\\n\"}},"
          + "\"permissions\":[\"tests.run\",\"workspace.read\",\"workspace.write\"],"
          + "\"policy_id\":\"environment-policy\","
          + "\"policy_version\":\"v1\","
          + "\"schema_version\":1,"
          + "\"targets\":[\"app.py\",\"log.txt\",\"unit\"],"
          + "\"task_id\":\"repair-greeting\","
          + "\"task_version\":\"2026-07-18-v1\","
          + "\"verifier\":{\"expected_files\":{\"app.py\":\"print('ready')\\n\"}}}";
  static final String TASK_FINGERPRINT =
      "5fbaa519a1f27b0e25c14e6aa96fbb831354d44fd4a592519b84bc21e5359b66";

  @Test
  @Rules("R1.4-task-fingerprint")
  void theTaskFingerprintIsSha256OfTheCanonicalTask() {
    assertThat(Canonical.string(TASK.toJson())).isEqualTo(TASK_CANONICAL);
    assertThat(sha256(TASK_CANONICAL)).isEqualTo(TASK_FINGERPRINT);
    assertThat(TASK.fingerprint()).isEqualTo(TASK_FINGERPRINT);
    assertThat(TaskSpec.fromJson(Json.parse(TASK_CANONICAL), "task")).isEqualTo(TASK);
    // Set order of the input never matters: lists are sorted in the canonical task.
    String shuffled =
        TASK_CANONICAL.replace(
            "[\"append_file\",\"read_file\",\"run_tests\",\"write_file\"]",
            "[\"write_file\",\"run_tests\",\"append_file\",\"read_file\"]");
    assertThat(TaskSpec.fromJson(Json.parse(shuffled), "task").fingerprint())
        .isEqualTo(TASK_FINGERPRINT);
    // The fixture's teaching task is this task, and a run signs its fingerprint.
    RuntimeFixture f = RuntimeFixture.inMemory(42);
    assertThat(f.task("write_file").fingerprint()).isEqualTo(TASK_FINGERPRINT);
    Run run = f.ratchet("w1").start(f.task("write_file"), "run-1", f.workspace());
    assertThat(run.state().taskFingerprint()).isEqualTo(TASK_FINGERPRINT);
    run.close();
  }

  @Test
  @Rules("R1.4-task-fingerprint")
  void changingAnySingleTaskOrPolicyFieldChangesTheFingerprint() {
    JsonObject base = TASK.toJson();
    List<UnaryOperator<JsonObject>> edits = new ArrayList<>();
    for (String field : List.of("task_id", "task_version", "policy_id", "policy_version")) {
      edits.add(
          t -> t.with(field, new JsonString(((JsonString) t.get(field).get()).value() + "'")));
    }
    edits.add(t -> t.with("adapter", new JsonString("other-adapter")));
    edits.add(t -> t.with("permissions", Json.parse("[\"workspace.read\",\"workspace.write\"]")));
    edits.add(
        t ->
            t.with(
                "action_kinds",
                Json.parse("[\"append_file\",\"read_file\",\"run_tests\",\"write_file\",\"x\"]")));
    edits.add(t -> t.with("targets", Json.parse("[\"app.py\",\"unit\"]")));
    edits.add(t -> t.with("approval_required", Json.parse("[]")));
    edits.add(t -> t.with("approval_required", Json.parse("[\"append_file\",\"write_file\"]")));
    for (String b : List.of("max_cost", "max_proposals", "max_steps", "max_wall_time_ms")) {
      edits.add(
          t -> {
            JsonObject budgets = (JsonObject) t.get("budgets").get();
            long v = ((JsonInt) budgets.get(b).get()).value();
            return t.with(
                "budgets", budgets.with(b, new JsonInt(b.equals("max_steps") ? v - 1 : v + 1)));
          });
    }
    edits.add(t -> t.with("environment", Json.parse("{\"files\":{\"app.py\":\"\"}}")));
    edits.add(t -> t.with("verifier", Json.parse("{\"expected_files\":{}}")));
    Set<String> fingerprints = new HashSet<>();
    fingerprints.add(TASK_FINGERPRINT);
    for (UnaryOperator<JsonObject> edit : edits) {
      fingerprints.add(TaskSpec.fromJson(edit.apply(base), "task").fingerprint());
    }
    assertThat(fingerprints).as("one distinct fingerprint per edit").hasSize(edits.size() + 1);
    // Every field of the task is among those edited (schema_version is pinned to 1).
    assertThat(base.members().keySet()).hasSize(13);
  }
}
