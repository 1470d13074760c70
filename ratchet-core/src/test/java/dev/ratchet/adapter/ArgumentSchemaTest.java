package dev.ratchet.adapter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArgumentSchemaTest {
  private static final ArgumentSchema SCHEMA =
      ArgumentSchema.builder()
          .text("account", 64, "[a-z]+", "the account")
          .integer("amount", 0, 100, null)
          .hex64("expected", true, null)
          .oneOf("mode", List.of("fast", "slow"), null)
          .bool("dry", null)
          .build();

  @Test
  void rendersAJsonSchemaObjectWithEveryRuleItKnows() {
    JsonObject expected =
        (JsonObject)
            Json.parse(
                """
                {"type":"object","additionalProperties":false,
                 "required":["account","amount","expected","mode","dry"],
                 "properties":{
                  "account":{"type":"string","description":"the account","minLength":1,
                             "maxLength":64,"pattern":"^(?:[a-z]+)$"},
                  "amount":{"type":"integer","minimum":0,"maximum":100},
                  "expected":{"type":["string","null"],"minLength":64,"maxLength":64,
                              "pattern":"^[0-9a-f]{64}$"},
                  "mode":{"type":"string","enum":["fast","slow"]},
                  "dry":{"type":"boolean"}}}
                """);
    assertEquals(expected, SCHEMA.toJson());
  }

  @Test
  void validatesWhatItRenders() {
    JsonObject good =
        (JsonObject)
            Json.parse(
                "{\"account\":\"abc\",\"amount\":5,\"expected\":null,\"mode\":\"fast\",\"dry\":true}");
    SCHEMA.validate(good, "args");
    refused(good.with("account", new JsonString("ABC")), "args.account: must match");
    refused(good.with("amount", Json.parse("101")), "args.amount: must be an integer from 0");
    refused(good.with("mode", new JsonString("medium")), "args.mode: 'medium' is not one of");
    refused(good.with("expected", new JsonString("ab")), "args.expected: must be at least 64");
    refused(good.with("dry", Json.parse("null")), "args.dry: must not be null");
    refused(good.with("extra", Json.parse("1")), "args: unknown fields [extra]");
    refused(good.without("amount"), "args: missing fields [amount]");
  }

  @Test
  void factoriesDeclareTheEffectKindAndTheirSchema() {
    ActionSpec read = ActionSpec.readOnly("look", "t.read", SCHEMA, a -> "t");
    ActionSpec receipted =
        ActionSpec.receipted("pay", "t.write", "irreversible_write", SCHEMA, a -> "t");
    ActionSpec once =
        ActionSpec.unreceipted("deploy", "t.write", "irreversible_write", SCHEMA, a -> "t");
    assertEquals(EffectKind.READ_ONLY, read.effectKind());
    assertEquals(ActionClass.READ, read.actionClass());
    assertEquals(EffectKind.RECEIPTED, receipted.effectKind());
    assertEquals(EffectKind.UNRECEIPTED, once.effectKind());
    assertEquals(ActionClass.WRITE, once.actionClass());
    assertEquals(SCHEMA, once.argumentSchema().orElseThrow());
    RatchetException e =
        assertThrows(
            RatchetException.class,
            () -> once.validateArguments(JsonObject.EMPTY, "action.arguments"));
    assertTrue(e.getMessage().startsWith("action.arguments: missing fields"), e.getMessage());
  }

  @Test
  void anOpaqueRuleHasNoSchemaAndWritesDefaultToReceipted() {
    ActionSpec opaque =
        ActionSpec.of("w", ActionClass.WRITE, "p", "reversible_write", (a, p) -> {}, a -> "t");
    assertTrue(opaque.argumentSchema().isEmpty());
    assertEquals(EffectKind.RECEIPTED, opaque.effectKind());
  }

  @Test
  void theRuleRunsBeforeTheSchemaSoItsMessagesStay() {
    ActionSpec spec =
        ActionSpec.of(
            "w",
            ActionClass.READ,
            "p",
            "read_only",
            SCHEMA,
            (a, p) -> {
              throw RatchetException.contract(p + ": the adapter's own rule");
            },
            a -> "t");
    RatchetException e =
        assertThrows(RatchetException.class, () -> spec.validateArguments(JsonObject.EMPTY, "x"));
    assertEquals("x: the adapter's own rule", e.getMessage());
  }

  @Test
  void refusesAnEffectKindThatContradictsTheClassAndDuplicateNames() {
    assertThrows(
        RatchetException.class,
        () ->
            new SchemaSpec(
                "k",
                ActionClass.READ,
                "p",
                "read_only",
                SCHEMA,
                (a, p) -> {},
                a -> "t",
                EffectKind.UNRECEIPTED));
    assertThrows(
        RatchetException.class,
        () -> ArgumentSchema.builder().bool("a", null).bool("a", null).build());
  }

  private static void refused(JsonObject args, String prefix) {
    RatchetException e = assertThrows(RatchetException.class, () -> SCHEMA.validate(args, "args"));
    assertEquals(ErrorCode.CONTRACT, e.code());
    assertTrue(e.getMessage().startsWith(prefix), e.getMessage());
  }
}
