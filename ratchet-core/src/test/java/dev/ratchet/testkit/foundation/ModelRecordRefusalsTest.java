package dev.ratchet.testkit.foundation;

import static dev.ratchet.testkit.foundation.FieldsTest.HEX;
import static dev.ratchet.testkit.foundation.FieldsTest.approvalJson;
import static dev.ratchet.testkit.foundation.FieldsTest.contract;
import static dev.ratchet.testkit.foundation.FieldsTest.decisionJson;
import static dev.ratchet.testkit.foundation.FieldsTest.envelopeJson;
import static dev.ratchet.testkit.foundation.FieldsTest.obj;
import static dev.ratchet.testkit.foundation.FieldsTest.receiptJson;
import static dev.ratchet.testkit.foundation.FieldsTest.taskJson;

import dev.ratchet.adapter.Receipt;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.Approval;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.ReviewDecision;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.testkit.Rules;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The model records' strict reading as one table (reference-behaviour §1.3, D14, D16): each row
 * reads a record edited from a good one and expects a {@code CONTRACT} refusal naming the path and
 * the rule. The accessors themselves and the good readings are in {@link FieldsTest}.
 */
class ModelRecordRefusalsTest {
  private static Arguments refusal(String path, ThrowingCallable read, String rule) {
    return Arguments.of(path, read, rule);
  }

  /** Each model record read from an edited good one: the path refused and the rule it names. */
  static Stream<Arguments> modelRefusals() {
    String budgets =
        "{\"max_proposals\":10,\"max_steps\":%s,\"max_wall_time_ms\":1000,\"max_cost\":0}";
    JsonObject approval = approvalJson();
    JsonObject task = taskJson();
    JsonObject receipt = receiptJson();
    JsonObject decision = decisionJson();
    JsonObject envelope = envelopeJson();
    return Stream.of(
        // integers are integers
        refusal(
            "budgets.max_steps",
            () -> Budgets.fromJson(obj(budgets.formatted("5.0")), "budgets"),
            "must be an integer, got number"),
        refusal(
            "budgets.max_steps",
            () -> Budgets.fromJson(obj(budgets.formatted("\"5\"")), "budgets"),
            "must be an integer, got string"),
        refusal(
            "budgets.max_steps",
            () -> Budgets.fromJson(obj(budgets.formatted("true")), "budgets"),
            "must be an integer, got boolean"),
        refusal(
            "a.environment_revision",
            () -> Approval.fromJson(approval.with("environment_revision", Json.parse("3.0")), "a"),
            "must be an integer"),
        refusal(
            "a.expires_at_ms",
            () -> Approval.fromJson(approval.with("expires_at_ms", new JsonString("99")), "a"),
            "must be an integer, got string"),
        refusal(
            "task.schema_version",
            () -> TaskSpec.fromJson(task.with("schema_version", Json.parse("2")), "task"),
            "must be an integer from 1 to 1"),
        refusal(
            "receipt.adapter_version",
            () -> Receipt.fromJson(receipt.with("adapter_version", Json.parse("0")), "receipt"),
            "must be an integer from 1"),
        // exactly their keys
        refusal(
            "approval",
            () -> Approval.fromJson(approval.without("nonce"), "approval"),
            "missing fields [nonce]"),
        refusal(
            "approval",
            () -> Approval.fromJson(approval.with("generation", Json.parse("3")), "approval"),
            "unknown fields [generation]"),
        refusal(
            "task.budgets",
            () -> TaskSpec.fromJson(task.with("budgets", obj("{\"max_steps\":1}")), "task"),
            "missing fields [max_cost, max_proposals, max_wall_time_ms]"),
        refusal(
            "receipt",
            () -> Receipt.fromJson(receipt.without("business_id"), "receipt"),
            "missing fields [business_id]"),
        refusal(
            "approval",
            () -> SignedEnvelope.fromJson(envelope.without("signature_ed25519"), "approval"),
            "missing fields [signature_ed25519]"),
        refusal(
            "approval",
            () ->
                SignedEnvelope.fromJson(
                    envelope.with("signer", new JsonString("alice")), "approval"),
            "unknown fields [signer]"),
        refusal(
            "approval",
            () ->
                SignedEnvelope.fromJson(
                    envelope.with("hmac_sha256", new JsonString(HEX)), "approval"),
            "unknown fields [hmac_sha256]"),
        // text is text, never blank, never trimmed
        refusal(
            "a.run_id",
            () -> Approval.fromJson(approval.with("run_id", new JsonString(" ")), "a"),
            "must not be empty or blank"),
        refusal(
            "a.task_id",
            () -> Approval.fromJson(approval.with("task_id", new JsonString("t".repeat(201))), "a"),
            "at most 200"),
        refusal(
            "a.intent_digest",
            () ->
                Approval.fromJson(
                    approval.with("intent_digest", new JsonString("AB".repeat(32))), "a"),
            "must be 64 lowercase hex characters"),
        refusal(
            "approval.payload",
            () -> SignedEnvelope.fromJson(envelope.with("payload", Json.parse("[]")), "approval"),
            "must be an object, got array"),
        refusal(
            "approval.signature_ed25519",
            () ->
                SignedEnvelope.fromJson(
                    envelope.with("signature_ed25519", Json.parse("1")), "approval"),
            "must be a string, got integer"),
        // lists are unique and drawn from their allowed set; choices are exact
        refusal(
            "task.action_kinds[1]",
            () -> TaskSpec.fromJson(task.with("action_kinds", Json.parse("[\"w\",\"w\"]")), "task"),
            "duplicate item 'w'"),
        refusal(
            "task.targets",
            () -> TaskSpec.fromJson(task.with("targets", Json.parse("[]")), "task"),
            "must not be empty"),
        refusal(
            "decision.decision",
            () ->
                ReviewDecision.fromJson(
                    decision.with("decision", new JsonString("approve")), "decision"),
            "'approve' is not one of [abort, replan]"),
        refusal(
            "decision.decision",
            () ->
                ReviewDecision.fromJson(
                    decision.with("decision", new JsonString("Replan")), "decision"),
            "is not one of"));
  }

  @ParameterizedTest(name = "{0} #{index}")
  @MethodSource("modelRefusals")
  @Rules({
    "R1.3-integer",
    "R1.3-exact-keys",
    "R1.3-text",
    "R1.3-unique-list",
    "R1.3-envelope",
    "R1.2-codes"
  })
  void modelRecordsRefuseEditsNamingPathAndRule(String path, ThrowingCallable read, String rule) {
    contract(read, path, rule);
  }
}
