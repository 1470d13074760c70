package dev.ratchet.testkit.foundation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.adapter.Receipt;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Fields;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.Text;
import dev.ratchet.model.Action;
import dev.ratchet.model.Approval;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.ReviewDecision;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.testkit.Rules;
import java.util.List;
import java.util.Set;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Strict record reading (reference-behaviour §1.3, D14, D16): integers are integers, objects have
 * exactly their keys, text is text, lists are unique, envelopes have their shape, and every refusal
 * carries a stable code. Workspace paths are in {@link WorkspacePathsTest}; the codes themselves in
 * {@link ErrorCodeTest}.
 */
class FieldsTest {
  static final String HEX = "ab".repeat(32);

  static JsonObject obj(String json) {
    return (JsonObject) Json.parse(json);
  }

  /** Asserts a CONTRACT refusal whose message starts with {@code path} and names {@code rule}. */
  static void contract(ThrowingCallable call, String path, String rule) {
    Throwable t = catchThrowable(call);
    assertThat(t).isInstanceOf(RatchetException.class);
    RatchetException e = (RatchetException) t;
    assertThat(e.code()).isEqualTo(ErrorCode.CONTRACT);
    assertThat(e.getMessage()).startsWith(path + ": ").contains(rule);
  }

  // ---------------------------------------------------------------- integers

  @Test
  @Rules({"R1.3-integer", "R1.2-codes"})
  void integersRefuseBooleansStringsAndDecimals() {
    for (String coercion : List.of("true", "\"1\"", "1.0", "1e0", "null", "[1]", "{}")) {
      Fields f = Fields.exact(obj("{\"n\":" + coercion + "}"), "rec", "n");
      contract(() -> f.integer("n", 0, 10), "rec.n", "must be an integer, got ");
    }
    Fields ok = Fields.exact(obj("{\"n\":1}"), "rec", "n");
    assertThat(ok.integer("n", 0, 10)).isEqualTo(1);
    contract(() -> ok.integer("n", 2, 10), "rec.n", "must be an integer from 2 to 10");
    Fields negative = Fields.exact(obj("{\"n\":-1}"), "rec", "n");
    contract(() -> negative.integer("n", 0, 10), "rec.n", "must be an integer from 0 to 10");
  }

  @Test
  @Rules({"R1.3-integer", "R1.2-codes"})
  void modelRecordsReadTheirIntegers() {
    String budgets =
        "{\"max_proposals\":10,\"max_steps\":%s,\"max_wall_time_ms\":1000,\"max_cost\":0}";
    assertThat(Budgets.fromJson(obj(budgets.formatted("5")), "budgets").maxSteps()).isEqualTo(5);
  }

  // ---------------------------------------------------------------- exact keys

  @Test
  @Rules({"R1.3-exact-keys", "R1.2-codes"})
  void missingAndUnknownKeysAreReportedApart() {
    contract(() -> Fields.exact(obj("{\"a\":1}"), "rec", "a", "b"), "rec", "missing fields [b]");
    contract(
        () -> Fields.exact(obj("{\"a\":1,\"b\":2,\"c\":3,\"0\":4}"), "rec", "a", "b"),
        "rec",
        "unknown fields [0, c]");
    Throwable missing = catchThrowable(() -> Fields.exact(obj("{\"a\":1}"), "rec", "a", "b"));
    assertThat(missing.getMessage()).doesNotContain("unknown");
    Throwable unknown =
        catchThrowable(() -> Fields.exact(obj("{\"a\":1,\"b\":2,\"c\":3}"), "rec", "a", "b"));
    assertThat(unknown.getMessage()).doesNotContain("missing");
    // Both at once: refused, with the missing ones named first.
    contract(() -> Fields.exact(obj("{\"a\":1,\"z\":2}"), "rec", "a", "b"), "rec", "missing");
    // A misspelling is named with the field it was meant to be.
    Throwable misspelt =
        catchThrowable(
            () ->
                Fields.exact(
                    obj("{\"permisions\":1,\"budgets\":2}"), "task", "permissions", "budgets"));
    assertThat(misspelt.getMessage())
        .contains("missing fields [permissions]")
        .contains("unknown fields [permisions]")
        .contains("'permisions': did you mean 'permissions'?");
    Throwable farOff =
        catchThrowable(() -> Fields.exact(obj("{\"zzz\":1}"), "task", "permissions"));
    assertThat(farOff.getMessage()).contains("unknown fields [zzz]").doesNotContain("did you mean");
    // A null member is present, not missing; the accessor then refuses its type.
    Fields withNull = Fields.exact(obj("{\"a\":null}"), "rec", "a");
    contract(() -> withNull.string("a"), "rec.a", "must be a string, got null");
    contract(
        () -> Fields.exact(Json.parse("[]"), "rec", "a"), "rec", "must be an object, got array");
  }

  @Test
  @Rules({"R1.3-exact-keys", "R1.2-codes"})
  void modelRecordsWithExactlyTheirKeysAreRead() {
    JsonObject approval = approvalJson();
    assertThat(Approval.fromJson(approval, "approval").nonce()).isEqualTo("n-1");
    JsonObject task = taskJson();
    assertThat(TaskSpec.fromJson(task, "task").taskId()).isEqualTo("t");
  }

  // ---------------------------------------------------------------- text

  @Test
  @Rules({"R1.3-text", "R1.2-codes"})
  void textIsNonBlankAtMost200CodePointsAndNeverTrimmed() {
    for (String blank : List.of("", " ", "\t\n", "\u2003", "\u3000 ")) {
      contract(() -> Text.require("f", blank), "f", "must not be empty or blank");
    }
    assertThat(Text.require("f", " x ")).isEqualTo(" x ");
    assertThat(Text.require("f", "\u00a0")).isEqualTo("\u00a0"); // NBSP is not whitespace in Java
    assertThat(Text.require("f", "x".repeat(200))).hasSize(200);
    contract(() -> Text.require("f", "x".repeat(201)), "f", "must be at most 200 characters");
    // The limit is in code points: 200 emoji are 400 UTF-16 units and still fit.
    String emoji = "\uD83D\uDE00".repeat(200);
    assertThat(Text.require("f", emoji)).isSameAs(emoji);
    contract(() -> Text.require("f", emoji + "x"), "f", "at most 200 characters");
    contract(() -> Text.require("f", null), "f", "must be a string");

    Fields f =
        Fields.exact(obj("{\"t\":\"  padded  \",\"b\":\"   \",\"n\":7}"), "rec", "t", "b", "n");
    assertThat(f.text("t")).isEqualTo("  padded  ");
    contract(() -> f.text("b"), "rec.b", "must not be empty or blank");
    contract(() -> f.text("n"), "rec.n", "must be a string, got integer");
    contract(() -> f.text("t", 5), "rec.t", "must be at most 5 characters");
  }

  @Test
  @Rules({"R1.3-text", "R1.2-codes"})
  void modelTextFieldsKeepTheirSpaces() {
    JsonObject approval = approvalJson();
    assertThat(Approval.fromJson(approval.with("nonce", new JsonString(" n ")), "a").nonce())
        .isEqualTo(" n ");
  }

  // ---------------------------------------------------------------- unique lists

  @Test
  @Rules({"R1.3-unique-list", "R1.2-codes"})
  void uniqueListsRefuseDuplicatesOutsidersEmptinessAndNonText() {
    Set<String> allowed = Set.of("a", "b", "c");
    Fields f =
        Fields.exact(
            obj(
                "{\"ok\":[\"c\",\"a\"],\"dup\":[\"a\",\"b\",\"a\"],\"out\":[\"a\",\"z\"],"
                    + "\"empty\":[],\"num\":[\"a\",1],\"blank\":[\" \"],\"str\":\"a\"}"),
            "rec",
            "ok",
            "dup",
            "out",
            "empty",
            "num",
            "blank",
            "str");
    assertThat(f.uniqueTexts("ok", allowed, false)).containsExactly("c", "a");
    contract(() -> f.uniqueTexts("dup", allowed, false), "rec.dup[2]", "duplicate item 'a'");
    contract(
        () -> f.uniqueTexts("out", allowed, false), "rec.out[1]", "'z' is not one of [a, b, c]");
    contract(() -> f.uniqueTexts("empty", allowed, false), "rec.empty", "must not be empty");
    assertThat(f.uniqueTexts("empty", allowed, true)).isEmpty();
    contract(
        () -> f.uniqueTexts("num", null, false), "rec.num[1]", "must be a string, got integer");
    contract(
        () -> f.uniqueTexts("blank", null, false), "rec.blank[0]", "must not be empty or blank");
    contract(() -> f.uniqueTexts("str", null, false), "rec.str", "must be an array, got string");
  }

  @Test
  @Rules({"R1.3-unique-list", "R1.2-codes"})
  void modelListsAreUniqueAndDrawnFromTheirAllowedSet() {
    JsonObject action =
        obj(
            "{\"action_id\":\"a1\",\"kind\":\"w\",\"arguments\":{},\"idempotency_key\":null,"
                + "\"environment_revision\":0,\"preconditions\":[\"always\"],\"risk\":\"r\","
                + "\"deadline_proposal\":5}");
    contract(
        () -> Action.fromJson(action, "action"),
        "action.preconditions[0]",
        "'always' is not one of [" + Action.REVISION_MATCHES + "]");
  }

  // ---------------------------------------------------------------- signed envelopes

  @Test
  @Rules({"R1.3-envelope", "R1.2-codes"})
  void signedEnvelopesArePayloadKeyIdAndAnEd25519Signature() {
    String kid = HEX.substring(0, 16);
    String sig = "A".repeat(85) + "w";
    JsonObject good =
        obj(
            "{\"payload\":{\"x\":1},\"key_id\":\""
                + kid
                + "\",\"signature_ed25519\":\""
                + sig
                + "\"}");
    SignedEnvelope e = SignedEnvelope.fromJson(good, "approval");
    assertThat(e.payload()).isEqualTo(obj("{\"x\":1}"));
    assertThat(e.keyId()).isEqualTo(kid);
    assertThat(e.signatureEd25519()).isEqualTo(sig);
    assertThat(e.toJson()).isEqualTo(good);
    for (String bad :
        List.of(kid.toUpperCase(), kid.substring(1), kid + "0", "zz" + kid.substring(2))) {
      contract(
          () -> SignedEnvelope.fromJson(good.with("key_id", new JsonString(bad)), "approval"),
          "approval.key_id",
          "must be 16 lowercase hex digits");
    }
    for (String bad :
        List.of(sig.substring(1), sig + "A", sig.substring(2) + "==", "+" + sig.substring(1))) {
      contract(
          () ->
              SignedEnvelope.fromJson(
                  good.with("signature_ed25519", new JsonString(bad)), "approval"),
          "approval.signature_ed25519",
          "86 unpadded base64url");
    }
    contract(() -> new SignedEnvelope(JsonObject.EMPTY, "x", sig), "key_id", "16 lowercase hex");
  }

  @Test
  @Rules({"R1.3-exact-keys", "R1.2-codes"})
  void goodReviewDecisionsAndReceiptsAreRead() {
    JsonObject d = decisionJson();
    assertThat(ReviewDecision.fromJson(d, "decision").decision()).isEqualTo("replan");
    JsonObject receipt = receiptJson();
    assertThat(Receipt.fromJson(receipt, "receipt").adapterVersion()).isEqualTo(1);
  }

  static JsonObject decisionJson() {
    return new ReviewDecision(
            "rita",
            new dev.ratchet.model.DecisionBinding("t", "r", "p", "1", null, null, null),
            "case-1",
            null,
            null,
            "ws",
            3,
            ReviewDecision.REPLAN,
            "n")
        .toJson();
  }

  static JsonObject envelopeJson() {
    return obj(
        "{\"payload\":{\"x\":1},\"key_id\":\""
            + HEX.substring(0, 16)
            + "\",\"signature_ed25519\":\""
            + "A".repeat(85)
            + "w\"}");
  }

  // ---------------------------------------------------------------- fixtures

  static JsonObject approvalJson() {
    return new Approval(
            "alice",
            new dev.ratchet.model.DecisionBinding("t", "r", "p", "1", "a1", "k", HEX),
            "ws",
            HEX,
            3,
            10,
            1_000,
            "n-1")
        .toJson();
  }

  static JsonObject taskJson() {
    return new TaskSpec(
            "t",
            "1",
            "p",
            "1",
            "memory-workspace",
            Set.of("workspace.write"),
            Set.of("w"),
            Set.of("app.py"),
            Set.of("w"),
            new Budgets(10, 5, 1000, 0),
            JsonObject.EMPTY,
            JsonObject.EMPTY)
        .toJson();
  }

  static JsonObject receiptJson() {
    return new Receipt(
            "memory-workspace",
            1,
            "rcpt-1",
            "k",
            HEX,
            JsonObject.EMPTY,
            1,
            2,
            HEX,
            HEX,
            5,
            "r",
            1,
            null,
            null)
        .toJson();
  }
}
