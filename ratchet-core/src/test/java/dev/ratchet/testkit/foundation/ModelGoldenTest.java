package dev.ratchet.testkit.foundation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.Run;
import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.Action;
import dev.ratchet.model.Approval;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.model.ReviewDecision;
import dev.ratchet.model.SignedEnvelope;
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
 * json/hashlib when the goldens were written); the approval's Ed25519 signature and key id were
 * computed with Python's {@code cryptography} package.
 */
class ModelGoldenTest {
  static final String KEY = "0123456789abcdef0123456789abcdef";
  static final String FP_BEFORE = "aa".repeat(32);
  static final String FP_AFTER = "bb".repeat(32);
  static final String APPROVAL_FP = "cc".repeat(32);
  static final String STATE_FP = "dd".repeat(32);
  static final String OTHER_DIGEST = "ee".repeat(32);
  static final byte[] APPROVER_KEY =
      "Ratchet golden approver key 32b!".getBytes(StandardCharsets.US_ASCII);

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

  private static void contract(ThrowingCallable call, String rule) {
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

  // ---------------------------------------------------------------- task validation

  @Test
  @Rules("R1.5-task")
  void taskFieldsAreValidatedStrictly() {
    JsonObject t = TASK.toJson();
    contract(
        () -> TaskSpec.fromJson(t.with("task_id", new JsonString(" ")), "task"), "task.task_id");
    contract(
        () -> TaskSpec.fromJson(t.with("policy_id", new JsonString("p".repeat(201))), "task"),
        "task.policy_id: must be at most 200");
    contract(
        () -> TaskSpec.fromJson(t.with("task_version", new JsonInt(1)), "task"),
        "task.task_version: must be a string");
    contract(
        () -> TaskSpec.fromJson(t.with("action_kinds", Json.parse("[]")), "task"),
        "task.action_kinds: must not be empty");
    contract(
        () -> TaskSpec.fromJson(t.with("permissions", Json.parse("[\"a\",\"a\"]")), "task"),
        "task.permissions[1]: duplicate item");
    contract(
        () -> TaskSpec.fromJson(t.with("targets", Json.parse("[\"\"]")), "task"),
        "task.targets[0]: must not be empty or blank");
    contract(
        () -> TaskSpec.fromJson(t.with("approval_required", Json.parse("[\"deploy\"]")), "task"),
        "approval_required: 'deploy' is not one of action_kinds or finish/cancel");
    assertThat(
            TaskSpec.fromJson(
                    t.with("approval_required", Json.parse("[\"finish\",\"cancel\"]")), "t")
                .requiresApproval("finish"))
        .isTrue();
    contract(
        () -> TaskSpec.fromJson(t.with("environment", Json.parse("[]")), "task"),
        "task.environment: must be an object");
    contract(
        () -> TaskSpec.fromJson(t.with("owner", new JsonString("me")), "task"),
        "task: unknown fields [owner]");
    contract(
        () -> TaskSpec.fromJson(t.without("verifier"), "task"), "task: missing fields [verifier]");
  }

  @Test
  @Rules("R1.5-task")
  void budgetsAreBoundedAndMaxProposalsIsAtLeastMaxSteps() {
    contract(
        () -> new Budgets(10, 0, 1, 0), "budgets.max_steps: must be an integer from 1 to 1000000");
    contract(() -> new Budgets(2_000_000, 1_000_001, 1, 0), "budgets.max_steps");
    contract(() -> new Budgets(5_000_001, 10, 1, 0), "budgets.max_proposals");
    contract(() -> new Budgets(10, 5, 0, 0), "budgets.max_wall_time_ms");
    contract(() -> new Budgets(10, 5, 1, -1), "budgets.max_cost");
    contract(
        () -> new Budgets(4, 5, 1, 0), "budgets.max_proposals: must be at least budgets.max_steps");
    assertThat(new Budgets(5, 5, 1, 0).maxProposals()).isEqualTo(5);
    assertThat(new Budgets(1_000_000, 1_000_000, 1, 0).maxSteps()).isEqualTo(Budgets.MAX_STEPS_CAP);
    JsonObject t = TASK.toJson();
    JsonObject budgets = (JsonObject) t.get("budgets").get();
    contract(
        () ->
            TaskSpec.fromJson(
                t.with("budgets", budgets.with("max_proposals", new JsonInt(99))), "task"),
        "must be at least budgets.max_steps");
    contract(
        () ->
            TaskSpec.fromJson(t.with("budgets", budgets.with("max_steps", new JsonInt(0))), "task"),
        "task.budgets.max_steps: must be an integer from 1 to 1000000");
  }

  // ---------------------------------------------------------------- approval, decision, pending

  static final Approval APPROVAL =
      new Approval(
          "alice",
          "repair-greeting",
          "run-1",
          "environment-policy",
          "v1",
          "a1",
          KEY,
          INTENT_DIGEST,
          "ws-1",
          STATE_FP,
          1,
          101,
          1_784_368_800_000L,
          "nonce-1");
  static final String APPROVAL_CANONICAL =
      "{\"action_id\":\"a1\",\"approver_id\":\"alice\",\"environment_instance_id\":\"ws-1\","
          + "\"environment_revision\":1,\"expires_at_ms\":1784368800000,\"expires_at_proposal\":101,"
          + "\"idempotency_key\":\""
          + KEY
          + "\",\"intent_digest\":\""
          + INTENT_DIGEST
          + "\",\"nonce\":\"nonce-1\",\"policy_id\":\"environment-policy\","
          + "\"policy_version\":\"v1\",\"run_id\":\"run-1\",\"state_fingerprint\":\""
          + STATE_FP
          + "\",\"task_id\":\"repair-greeting\"}";
  static final String APPROVAL_SHA256 =
      "b0c82490fbcee3feb0ef8695c253411e386303b8e0cdc6131ad4d18209d991df";
  // Computed with Python's `cryptography` (Ed25519, seed APPROVER_KEY) and hashlib.
  static final String APPROVER_KEY_ID = "8e201ab62bfe0a34";
  static final String APPROVAL_SIGNATURE =
      "pGZ0vXFZFw5iNEgKCOs2NOQBHSedL_syjk57raf6sqLy0_m44RJJFvnA6BWOzIQrAgTceHtuk0YpI3OBlCY-CA";
  static final String ENVELOPE_FINGERPRINT =
      "fb0993dfbda42d8fa58c9456ec04f913076eab55213cff9bc68c5b0240216506";
  static final String ENVELOPE_CANONICAL =
      "{\"key_id\":\""
          + APPROVER_KEY_ID
          + "\",\"payload\":"
          + APPROVAL_CANONICAL
          + ",\"signature_ed25519\":\""
          + APPROVAL_SIGNATURE
          + "\"}";

  @Test
  @Rules("R1.4-canonical")
  void anApprovalAndItsSignedEnvelopeArePinned() {
    assertThat(Canonical.string(APPROVAL.toJson())).isEqualTo(APPROVAL_CANONICAL);
    assertThat(sha256(APPROVAL_CANONICAL)).isEqualTo(APPROVAL_SHA256);
    assertThat(Canonical.sha256Hex(APPROVAL.toJson())).isEqualTo(APPROVAL_SHA256);
    assertThat(Approval.fromJson(Json.parse(APPROVAL_CANONICAL), "approval")).isEqualTo(APPROVAL);
    // The signature is Ed25519 (deterministic, RFC 8032) over the canonical payload; the golden
    // was computed outside the JDK.
    SignedEnvelope env =
        RuntimeFixture.sign(
            APPROVAL.toJson(),
            dev.ratchet.sign.SigningKey.of(
                "alice", dev.ratchet.sign.Ed25519.fromSeed(APPROVER_KEY)));
    assertThat(env.keyId()).isEqualTo(APPROVER_KEY_ID);
    assertThat(env.signatureEd25519()).isEqualTo(APPROVAL_SIGNATURE);
    assertThat(Canonical.string(env.toJson())).isEqualTo(ENVELOPE_CANONICAL);
    assertThat(sha256(ENVELOPE_CANONICAL)).isEqualTo(ENVELOPE_FINGERPRINT);
    assertThat(env.fingerprint()).isEqualTo(ENVELOPE_FINGERPRINT);
  }

  static final ReviewDecision DECISION =
      new ReviewDecision(
          "rita",
          "repair-greeting",
          "run-1",
          "environment-policy",
          "v1",
          "case-1",
          "a1",
          KEY,
          INTENT_DIGEST,
          OTHER_DIGEST,
          RECEIPT_FINGERPRINT,
          "ws-1",
          3,
          ReviewDecision.REPLAN,
          "nonce-2");
  static final String DECISION_CANONICAL =
      "{\"action_id\":\"a1\",\"case_id\":\"case-1\",\"decision\":\"replan\","
          + "\"environment_instance_id\":\"ws-1\",\"environment_revision\":3,"
          + "\"idempotency_key\":\""
          + KEY
          + "\",\"nonce\":\"nonce-2\",\"observed_intent_digest\":\""
          + OTHER_DIGEST
          + "\",\"observed_receipt_fingerprint\":\""
          + RECEIPT_FINGERPRINT
          + "\",\"pending_intent_digest\":\""
          + INTENT_DIGEST
          + "\",\"policy_id\":\"environment-policy\",\"policy_version\":\"v1\","
          + "\"reviewer_id\":\"rita\",\"run_id\":\"run-1\",\"task_id\":\"repair-greeting\"}";
  static final String DECISION_SHA256 =
      "373c37b8d260b2e63fa1a36abf253fed365bcd59486afe12d044617c35c20d7d";

  @Test
  @Rules("R1.4-canonical")
  void aReviewDecisionIsPinned() {
    assertThat(Canonical.string(DECISION.toJson())).isEqualTo(DECISION_CANONICAL);
    assertThat(sha256(DECISION_CANONICAL)).isEqualTo(DECISION_SHA256);
    assertThat(Canonical.sha256Hex(DECISION.toJson())).isEqualTo(DECISION_SHA256);
    assertThat(ReviewDecision.fromJson(Json.parse(DECISION_CANONICAL), "d")).isEqualTo(DECISION);
  }

  static final Observation PRE_STATE = new Observation("ws-1", 1, STATE_FP, "memory-agent");
  static final Action ACTION =
      new Action(
          "a1",
          "write_file",
          ARGS,
          KEY,
          1,
          List.of(Action.REVISION_MATCHES),
          "reversible_write",
          101);
  static final String PENDING_CANONICAL =
      "{\"action\":{\"action_id\":\"a1\",\"arguments\":{\"content\":\"print('ready')\\n\","
          + "\"path\":\"app.py\"},\"deadline_proposal\":101,\"environment_revision\":1,"
          + "\"idempotency_key\":\""
          + KEY
          + "\",\"kind\":\"write_file\",\"preconditions\":[\"environment_revision_matches\"],"
          + "\"risk\":\"reversible_write\"},"
          + "\"approval\":"
          + ENVELOPE_CANONICAL
          + ",\"intent_digest\":\""
          + INTENT_DIGEST
          + "\",\"pre_state\":{\"identity\":\"memory-agent\",\"instance_id\":\"ws-1\","
          + "\"revision\":1,\"state_fingerprint\":\""
          + STATE_FP
          + "\"}}";
  static final String PENDING_SHA256 =
      "de24b8372ae09e191d043c66b46ffda61168c0fdbfe90443b297b28b00ae355a";

  @Test
  @Rules("R1.9-pending")
  void aPendingIntentHoldsTheKeyedActionDigestPreStateAndApprovalEvidence() {
    SignedEnvelope evidence =
        new SignedEnvelope(APPROVAL.toJson(), APPROVER_KEY_ID, APPROVAL_SIGNATURE);
    PendingIntent p = new PendingIntent(ACTION, INTENT_DIGEST, PRE_STATE, evidence);
    assertThat(Canonical.string(p.toJson())).isEqualTo(PENDING_CANONICAL);
    assertThat(sha256(PENDING_CANONICAL)).isEqualTo(PENDING_SHA256);
    assertThat(Canonical.sha256Hex(p.toJson())).isEqualTo(PENDING_SHA256);
    assertThat(PendingIntent.fromJson(Json.parse(PENDING_CANONICAL), "pending")).isEqualTo(p);
    assertThat(p.key()).isEqualTo(KEY);
    // The intent digest it holds is the D2 digest of its own action.
    assertThat(
            new WriteIntent("memory-workspace", ACTION.kind(), ACTION.arguments(), ACTION.risk())
                .digest())
        .isEqualTo(p.intentDigest());
    // Before approval the evidence is null, and that is pinned too.
    PendingIntent unapproved = new PendingIntent(ACTION, INTENT_DIGEST, PRE_STATE, null);
    assertThat(Canonical.string(unapproved.toJson()))
        .isEqualTo(
            PENDING_CANONICAL.replace("\"approval\":" + ENVELOPE_CANONICAL, "\"approval\":null"));
    assertThat(unapproved.withApproval(evidence)).isEqualTo(p);
  }

  @Test
  @Rules("R1.9-pending")
  void aPendingIntentWithoutKeyOrWithABadDigestIsRefused() {
    contract(
        () -> new PendingIntent(ACTION.withIdempotencyKey(null), INTENT_DIGEST, PRE_STATE, null),
        "pending.action.idempotency_key: must be set");
    contract(
        () -> new PendingIntent(ACTION, "ABC", PRE_STATE, null),
        "intent_digest: must be 64 lowercase hex characters");
    JsonObject json = (JsonObject) Json.parse(PENDING_CANONICAL);
    contract(
        () -> PendingIntent.fromJson(json.without("pre_state"), "pending"),
        "pending: missing fields [pre_state]");
    contract(
        () ->
            PendingIntent.fromJson(
                json.with("approval", ((JsonObject) json.get("approval").get()).without("payload")),
                "pending"),
        "pending.approval: missing fields [payload]");
    JsonObject action = (JsonObject) json.get("action").get();
    contract(
        () ->
            PendingIntent.fromJson(
                json.with("action", action.with("idempotency_key", Json.parse("null"))), "pending"),
        "pending.action.idempotency_key: must be set");
  }
}
