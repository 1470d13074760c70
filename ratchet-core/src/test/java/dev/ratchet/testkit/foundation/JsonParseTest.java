package dev.ratchet.testkit.foundation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonBool;
import dev.ratchet.json.JsonDecimal;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonLimits;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.testkit.Rules;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * The strict parser (SPEC §3, D16): every refusal is a {@code CONTRACT} error whose message names
 * the path and the rule; the byte entry point agrees with the text one. The seeded round trip and
 * fuzz are in {@link JsonFuzzTest}.
 */
@Rules("R1.3-strict-json")
class JsonParseTest {
  private static final JsonLimits SMALL = new JsonLimits(100, 8, 10);

  private static void refused(String json, String path, String rule) {
    refused(json, JsonLimits.DEFAULT, path, rule);
  }

  private static void refused(String json, JsonLimits limits, String path, String rule) {
    Throwable t = catchThrowable(() -> Json.parse(json, limits));
    assertRefusal(t, json, path, rule);
    // The byte entry point reaches the same verdict for the same text.
    Throwable b = catchThrowable(() -> Json.parse(json.getBytes(StandardCharsets.UTF_8), limits));
    if (json.chars().noneMatch(c -> Character.isSurrogate((char) c))) {
      assertRefusal(b, json, path, rule);
    }
  }

  private static void assertRefusal(Throwable t, String json, String path, String rule) {
    String shown = json.length() > 60 ? json.substring(0, 60) + "…" : json;
    assertThat(t).as("parse of %s", shown).isInstanceOf(RatchetException.class);
    RatchetException e = (RatchetException) t;
    assertThat(e.code()).as("code for %s", shown).isEqualTo(ErrorCode.CONTRACT);
    assertThat(e.getMessage()).as("message for %s", shown).startsWith(path + ": ").contains(rule);
  }

  private static void refusedBytes(byte[] utf8, String rule) {
    Throwable t = catchThrowable(() -> Json.parse(utf8, JsonLimits.DEFAULT));
    assertRefusal(t, HexFormat.of().formatHex(utf8), "$", rule);
  }

  // ---------------------------------------------------------------- refusals

  @Test
  void duplicateKeysAreRefusedAtTheirNestedPath() {
    refused("{\"x\":1,\"x\":1}", "$.x", "duplicate key");
    refused("{\"a\":{\"b\":1,\"b\":2}}", "$.a.b", "duplicate key");
    refused("{\"list\":[{},{\"k\":1,\"k\":[]}]}", "$.list[1].k", "duplicate key");
    refused("{\"a b\":{\"c\":1,\"c\":1}}", "$[\"a b\"].c", "duplicate key");
    // Escapes do not hide a duplicate: "\u0061" is "a".
    refused("{\"a\":1,\"\\u0061\":2}", "$.a", "duplicate key");
  }

  @Test
  void nanAndInfinityLiteralsAreRefused() {
    refused("{\"x\":NaN}", "$.x", "non-finite number NaN");
    refused("[Infinity]", "$[0]", "non-finite number Infinity");
    refused("{\"y\":[1,-Infinity]}", "$.y[1]", "non-finite number -Infinity");
  }

  @Test
  void leadingZerosAreRefused() {
    refused("{\"n\":01}", "$.n", "leading zero");
    refused("[-007]", "$[0]", "leading zero");
    refused("00", "$", "leading zero");
    assertThat(Json.parse("[0,-0,0.5,-0.5,0e1]")).isInstanceOf(JsonArray.class);
  }

  @Test
  void trailingCommasAreRefused() {
    refused("[1,2,]", "$", "trailing comma in array");
    refused("{\"a\":[1, ]}", "$.a", "trailing comma in array");
    refused("{\"a\":1,}", "$", "trailing comma in object");
    refused("{\"a\":{\"b\":1 ,\n}}", "$.a", "trailing comma in object");
    refused("[,]", "$[0]", "unexpected character ','");
  }

  @Test
  void trailingDataIsRefused() {
    refused("{\"a\":1}x", "$", "trailing data");
    refused("1 2", "$", "trailing data");
    refused("{}{}", "$", "trailing data");
    refused("[] ]", "$", "trailing data");
    assertThat(Json.parse(" \t\r\n{}\n ")).isEqualTo(JsonObject.EMPTY);
  }

  @Test
  void unterminatedStringsAreRefused() {
    refused("{\"a\":\"abc", "$.a", "unterminated string");
    refused("[\"abc", "$[0]", "unterminated string");
    refused("{\"ab", "$", "unterminated string");
    refused("\"abc\\", "$", "unterminated escape");
  }

  @Test
  void rawControlCharactersInStringsAreRefused() {
    refused("{\"a\":\"x\u0001y\"}", "$.a", "unescaped control character");
    refused("{\"a\":\"x\ny\"}", "$.a", "unescaped control character");
    refused("[\"\t\"]", "$[0]", "unescaped control character");
    refused("\"\u0000\"", "$", "unescaped control character");
    assertThat(Json.parse("\"\\u0000\\t\\n\u007f\"")).isEqualTo(new JsonString("\u0000\t\n\u007f"));
  }

  @Test
  void invalidEscapesAreRefused() {
    refused("{\"a\":\"\\x\"}", "$.a", "invalid escape \\'x'");
    refused("\"\\U0041\"", "$", "invalid escape \\'U'");
    refused("\"\\'\"", "$", "invalid escape");
    refused("{\"k\":\"\\u12G4\"}", "$.k", "invalid hex digit in \\u escape");
    refused("[\"\\u00\"]", "$[0]", "invalid hex digit in \\u escape");
    refused("\"\\u00", "$", "truncated \\u escape");
    // Only ASCII hex digits: fullwidth or Arabic-Indic digits are not hex digits in JSON.
    refused("\"\\u\uff10\uff10\uff14\uff11\"", "$", "invalid hex digit in \\u escape");
    refused("\"\\u\u0660\u06600041\"", "$", "invalid hex digit in \\u escape");
    assertThat(Json.parse("\"\\u004a\\u004A\\/\\b\\f\\r\"")).isEqualTo(new JsonString("JJ/\b\f\r"));
  }

  @Test
  void loneSurrogatesAreRefusedEscapedOrRaw() {
    refused("{\"a\":\"\\ud800\"}", "$.a", "lone surrogate");
    refused("[\"\\udc00\"]", "$[0]", "lone surrogate");
    refused("\"\\ud800\\u0041\"", "$", "lone surrogate");
    refused("\"\\udc00\\ud800\"", "$", "lone surrogate");
    refused("{\"\\ud800\":1}", "$", "lone surrogate");
    refused("\"x\ud800\"", "$", "lone surrogate"); // a raw lone surrogate in a Java string
    assertThat(Json.parse("\"\\ud83d\\ude00\"")).isEqualTo(new JsonString("\uD83D\uDE00"));
  }

  @Test
  void nestingBeyondTheDepthLimitIsRefusedWithoutStackOverflow() {
    String ok = "[".repeat(64) + "]".repeat(64);
    assertThat(Json.parse(ok)).isInstanceOf(JsonArray.class);
    refused("[".repeat(65) + "]".repeat(65), "$" + "[0]".repeat(64), "depth limit");
    refused("{\"a\":".repeat(65) + "1" + "}".repeat(65), "$" + ".a".repeat(64), "depth limit");
    // A nesting bomb far beyond any stack: refused at the limit, never a StackOverflowError.
    refused("[".repeat(1_000_000), "$" + "[0]".repeat(64), "nesting deeper than 64");
    JsonLimits deepest = new JsonLimits(8 << 20, JsonLimits.MAX_DEPTH, 1 << 20);
    assertThat(Json.parse("[".repeat(256) + "]".repeat(256), deepest)).isNotNull();
    refused("[".repeat(100_000), deepest, "$" + "[0]".repeat(256), "depth limit");
    assertThatThrownBy(() -> new JsonLimits(1, JsonLimits.MAX_DEPTH + 1, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void documentsBeyondTheSizeLimitAreRefusedInUtf8Bytes() {
    String hundred = "\"" + "x".repeat(98) + "\"";
    assertThat(Json.parse(hundred, new JsonLimits(100, 8, 1000))).isNotNull();
    refused("\"" + "x".repeat(99) + "\"", new JsonLimits(100, 8, 1000), "$", "exceeds 100 bytes");
    // 34 euro signs are 34 chars but 102 UTF-8 bytes.
    refused(
        "\"" + "\u20ac".repeat(34) + "\"",
        new JsonLimits(100, 8, 1000),
        "$",
        "document exceeds 100 bytes (size limit)");
    refused("\"" + "x".repeat(8 << 20) + "\"", "$", "size limit");
  }

  @Test
  void stringsBeyondTheLengthLimitAreRefused() {
    assertThat(Json.parse("{\"a\":\"0123456789\"}", SMALL)).isNotNull();
    refused("{\"a\":\"01234567890\"}", SMALL, "$.a", "string longer than 10 characters");
    refused("{\"01234567890\":1}", SMALL, "$", "string longer than 10 characters");
    refused("[\"\\u0041\\u0041\\u0041\\u0041\\u0041\\u0041aaaaa\"]", SMALL, "$[0]", "longer than");
  }

  @Test
  void malformedUtf8IsRefused() {
    byte q = '"';
    refusedBytes(new byte[] {q, (byte) 0x80, q}, "not valid UTF-8"); // lone continuation byte
    refusedBytes(new byte[] {q, (byte) 0xc3, q}, "not valid UTF-8"); // truncated sequence
    refusedBytes(new byte[] {q, (byte) 0xc0, (byte) 0xaf, q}, "not valid UTF-8"); // overlong
    refusedBytes(new byte[] {q, (byte) 0xed, (byte) 0xa0, (byte) 0x80, q}, "not valid UTF-8");
    refusedBytes(
        new byte[] {q, (byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80, q}, "not valid UTF-8");
    refusedBytes(new byte[] {q, (byte) 0xff, q}, "not valid UTF-8");
    // A byte-order mark is not whitespace.
    refusedBytes(new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf, '1'}, "unexpected character");
    assertThat(
            Json.parse(
                new byte[] {q, (byte) 0xf0, (byte) 0x9f, (byte) 0x98, (byte) 0x80, q},
                JsonLimits.DEFAULT))
        .isEqualTo(new JsonString("\uD83D\uDE00"));
  }

  @Test
  void numbersTooLargeForADoubleAreRefused() {
    refused("{\"n\":1e400}", "$.n", "out of range");
    refused("[-1e400]", "$[0]", "out of range");
    refused("1.8e308", "$", "out of range");
    refused("{\"n\":1e99999999999}", "$.n", "exponent is out of range");
    refused("1e-99999999999", "$", "exponent is out of range");
    refused("1" + "0".repeat(64), "$", "number literal longer than 64 characters");
    assertThat(Json.parse("1.7976931348623157e308")).isEqualTo(new JsonDecimal(Double.MAX_VALUE));
    assertThat(Json.parse("9007199254740991")).isEqualTo(new JsonInt(JsonInt.MAX_SAFE));
    // Beyond ±(2^53−1) an integer literal is a decimal, never a JsonInt (D16).
    assertThat(Json.parse("9007199254740992")).isInstanceOf(JsonDecimal.class);
    assertThat(Json.parse("1.0")).isInstanceOf(JsonDecimal.class);
  }

  @Test
  void otherSyntaxErrorsNameTheirPathAndRule() {
    refused("", "$", "unexpected end of input");
    refused("{\"a\"1}", "$", "expected ':'");
    refused("{a:1}", "$", "expected a member name in double quotes");
    refused("{'a':1}", "$", "expected a member name in double quotes");
    refused("[1 2]", "$", "expected ',' or ']' in array");
    refused("{\"a\":1 \"b\":2}", "$", "expected ',' or '}' in object");
    refused("[+1]", "$[0]", "unexpected character '+'");
    refused("[.5]", "$[0]", "unexpected character '.'");
    refused("[1.]", "$[0]", "digit expected after decimal point");
    refused("[1e]", "$[0]", "digit expected in exponent");
    refused("[-]", "$[0]", "invalid number");
    refused("{\"t\":tru}", "$.t", "invalid literal");
    refused("[nul]", "$[0]", "invalid literal");
    refused("// c\n{}", "$", "unexpected character '/'");
    refused("{\"a\":1", "$", "expected ',' or '}' in object");
  }

  @Test
  void parsedValuesHaveTheirJsonTypes() {
    JsonObject o =
        (JsonObject) Json.parse("{\"s\":\"x\",\"i\":-3,\"d\":0.5,\"t\":true,\"n\":null,\"a\":[]}");
    assertThat(o.members())
        .containsEntry("s", new JsonString("x"))
        .containsEntry("i", new JsonInt(-3))
        .containsEntry("d", new JsonDecimal(0.5))
        .containsEntry("t", JsonBool.TRUE)
        .containsEntry("n", JsonNull.INSTANCE)
        .containsEntry("a", JsonArray.EMPTY);
  }
}
