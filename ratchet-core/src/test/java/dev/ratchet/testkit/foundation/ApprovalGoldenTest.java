package dev.ratchet.testkit.foundation;

import static dev.ratchet.testkit.foundation.ModelGoldenTest.ARGS;
import static dev.ratchet.testkit.foundation.ModelGoldenTest.INTENT_DIGEST;
import static dev.ratchet.testkit.foundation.ModelGoldenTest.KEY;
import static dev.ratchet.testkit.foundation.ModelGoldenTest.OTHER_DIGEST;
import static dev.ratchet.testkit.foundation.ModelGoldenTest.RECEIPT_FINGERPRINT;
import static dev.ratchet.testkit.foundation.ModelGoldenTest.STATE_FP;
import static dev.ratchet.testkit.foundation.ModelGoldenTest.contract;
import static dev.ratchet.testkit.foundation.ModelGoldenTest.sha256;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Action;
import dev.ratchet.model.Approval;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.model.ReviewDecision;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.testkit.Rules;
import dev.ratchet.testkit.RuntimeFixture;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Golden canonical bytes and digests of the evidence records (SPEC §6, §8): an approval and its
 * signed envelope, a review decision, and the pending intent that holds the approval evidence. The
 * goldens were produced and checked as described on {@link ModelGoldenTest}, whose shared values
 * (key, intent digest, receipt fingerprint) they build on; the approval's Ed25519 signature and key
 * id were computed with Python's {@code cryptography} package.
 */
class ApprovalGoldenTest {
  static final byte[] APPROVER_KEY =
      "Ratchet golden approver key 32b!".getBytes(StandardCharsets.US_ASCII);

  static final Approval APPROVAL =
      new Approval(
          "alice",
          new dev.ratchet.model.DecisionBinding(
              "repair-greeting", "run-1", "environment-policy", "v1", "a1", KEY, INTENT_DIGEST),
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
          new dev.ratchet.model.DecisionBinding(
              "repair-greeting", "run-1", "environment-policy", "v1", "a1", KEY, INTENT_DIGEST),
          "case-1",
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
