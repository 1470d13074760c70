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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

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

  /** One refusal: what it shows, the document, the limits it is parsed under, path and rule. */
  private static Arguments row(String topic, String json, String path, String rule) {
    return row(topic, json, JsonLimits.DEFAULT, path, rule);
  }

  private static Arguments row(
      String topic, String json, JsonLimits limits, String path, String rule) {
    return Arguments.of(topic, json, limits, path, rule);
  }

  /** Every refusal of the strict parser, by topic: the path it names and the rule it states. */
  static Stream<Arguments> refusals() {
    return Stream.of(
        row("duplicate", "{\"x\":1,\"x\":1}", "$.x", "duplicate key"),
        row("duplicate", "{\"a\":{\"b\":1,\"b\":2}}", "$.a.b", "duplicate key"),
        row("duplicate", "{\"list\":[{},{\"k\":1,\"k\":[]}]}", "$.list[1].k", "duplicate key"),
        row("duplicate", "{\"a b\":{\"c\":1,\"c\":1}}", "$[\"a b\"].c", "duplicate key"),
        row(
            "duplicate",
            "{\"a\":1,\"\\u0061\":2}",
            "$.a",
            "duplicate key"), // Escapes do not hide a duplicate: "\u0061" is "a".
        row("nan", "{\"x\":NaN}", "$.x", "non-finite number NaN"),
        row("nan", "[Infinity]", "$[0]", "non-finite number Infinity"),
        row("nan", "{\"y\":[1,-Infinity]}", "$.y[1]", "non-finite number -Infinity"),
        row("zeros", "{\"n\":01}", "$.n", "leading zero"),
        row("zeros", "[-007]", "$[0]", "leading zero"),
        row("zeros", "00", "$", "leading zero"),
        row("comma", "[1,2,]", "$", "trailing comma in array"),
        row("comma", "{\"a\":[1, ]}", "$.a", "trailing comma in array"),
        row("comma", "{\"a\":1,}", "$", "trailing comma in object"),
        row("comma", "{\"a\":{\"b\":1 ,\n}}", "$.a", "trailing comma in object"),
        row("comma", "[,]", "$[0]", "unexpected character ','"),
        row("trailing", "{\"a\":1}x", "$", "trailing data"),
        row("trailing", "1 2", "$", "trailing data"),
        row("trailing", "{}{}", "$", "trailing data"),
        row("trailing", "[] ]", "$", "trailing data"),
        row("unterminated", "{\"a\":\"abc", "$.a", "unterminated string"),
        row("unterminated", "[\"abc", "$[0]", "unterminated string"),
        row("unterminated", "{\"ab", "$", "unterminated string"),
        row("unterminated", "\"abc\\", "$", "unterminated escape"),
        row("control", "{\"a\":\"x\u0001y\"}", "$.a", "unescaped control character"),
        row("control", "{\"a\":\"x\ny\"}", "$.a", "unescaped control character"),
        row("control", "[\"\t\"]", "$[0]", "unescaped control character"),
        row("control", "\"\u0000\"", "$", "unescaped control character"),
        row("escape", "{\"a\":\"\\x\"}", "$.a", "invalid escape \\'x'"),
        row("escape", "\"\\U0041\"", "$", "invalid escape \\'U'"),
        row("escape", "\"\\'\"", "$", "invalid escape"),
        row("escape", "{\"k\":\"\\u12G4\"}", "$.k", "invalid hex digit in \\u escape"),
        row("escape", "[\"\\u00\"]", "$[0]", "invalid hex digit in \\u escape"),
        row("escape", "\"\\u00", "$", "truncated \\u escape"),
        row(
            "escape",
            "\"\\u\uff10\uff10\uff14\uff11\"",
            "$",
            "invalid hex digit in \\u escape"), // Only ASCII hex digits: fullwidth or Arabic-Indic
        // digits are not hex digits in JSON.
        row("escape", "\"\\u\u0660\u06600041\"", "$", "invalid hex digit in \\u escape"),
        row("surrogate", "{\"a\":\"\\ud800\"}", "$.a", "lone surrogate"),
        row("surrogate", "[\"\\udc00\"]", "$[0]", "lone surrogate"),
        row("surrogate", "\"\\ud800\\u0041\"", "$", "lone surrogate"),
        row("surrogate", "\"\\udc00\\ud800\"", "$", "lone surrogate"),
        row("surrogate", "{\"\\ud800\":1}", "$", "lone surrogate"),
        row("surrogate", "\"x\ud800\"", "$", "lone surrogate"),
        row("depth", "[".repeat(65) + "]".repeat(65), "$" + "[0]".repeat(64), "depth limit"),
        row(
            "depth",
            "{\"a\":".repeat(65) + "1" + "}".repeat(65),
            "$" + ".a".repeat(64),
            "depth limit"),
        row(
            "depth",
            "[".repeat(1_000_000),
            "$" + "[0]".repeat(64),
            "nesting deeper than 64"), // A nesting bomb far beyond any stack: refused at the limit,
        // never a StackOverflowError.
        row(
            "size",
            "\"" + "x".repeat(99) + "\"",
            new JsonLimits(100, 8, 1000),
            "$",
            "exceeds 100 bytes"),
        row(
            "size",
            "\"" + "\u20ac".repeat(34) + "\"",
            new JsonLimits(100, 8, 1000),
            "$",
            "document exceeds 100 bytes (size limit)"), // 34 euro signs are 34 chars but 102 UTF-8
        // bytes.
        row("size", "\"" + "x".repeat(8 << 20) + "\"", "$", "size limit"),
        row("length", "{\"a\":\"01234567890\"}", SMALL, "$.a", "string longer than 10 characters"),
        row("length", "{\"01234567890\":1}", SMALL, "$", "string longer than 10 characters"),
        row(
            "length",
            "[\"\\u0041\\u0041\\u0041\\u0041\\u0041\\u0041aaaaa\"]",
            SMALL,
            "$[0]",
            "longer than"),
        row("range", "{\"n\":1e400}", "$.n", "out of range"),
        row("range", "[-1e400]", "$[0]", "out of range"),
        row("range", "1.8e308", "$", "out of range"),
        row("range", "{\"n\":1e99999999999}", "$.n", "exponent is out of range"),
        row("range", "1e-99999999999", "$", "exponent is out of range"),
        row("range", "1" + "0".repeat(64), "$", "number literal longer than 64 characters"),
        row("syntax", "", "$", "unexpected end of input"),
        row("syntax", "{\"a\"1}", "$", "expected ':'"),
        row("syntax", "{a:1}", "$", "expected a member name in double quotes"),
        row("syntax", "{'a':1}", "$", "expected a member name in double quotes"),
        row("syntax", "[1 2]", "$", "expected ',' or ']' in array"),
        row("syntax", "{\"a\":1 \"b\":2}", "$", "expected ',' or '}' in object"),
        row("syntax", "[+1]", "$[0]", "unexpected character '+'"),
        row("syntax", "[.5]", "$[0]", "unexpected character '.'"),
        row("syntax", "[1.]", "$[0]", "digit expected after decimal point"),
        row("syntax", "[1e]", "$[0]", "digit expected in exponent"),
        row("syntax", "[-]", "$[0]", "invalid number"),
        row("syntax", "{\"t\":tru}", "$.t", "invalid literal"),
        row("syntax", "[nul]", "$[0]", "invalid literal"),
        row("syntax", "// c\n{}", "$", "unexpected character '/'"),
        row("syntax", "{\"a\":1", "$", "expected ',' or '}' in object"));
  }

  @ParameterizedTest(name = "{0} #{index}")
  @MethodSource("refusals")
  void eachRefusalNamesItsPathAndRule(
      String topic, String json, JsonLimits limits, String path, String rule) {
    refused(json, limits, path, rule);
  }

  @Test
  void zerosWithoutLeadingZerosAreAccepted() {
    assertThat(Json.parse("[0,-0,0.5,-0.5,0e1]")).isInstanceOf(JsonArray.class);
  }

  @Test
  void surroundingWhitespaceIsNotTrailingData() {
    assertThat(Json.parse(" \t\r\n{}\n ")).isEqualTo(JsonObject.EMPTY);
  }

  @Test
  void escapedControlCharactersAreAccepted() {
    assertThat(Json.parse("\"\\u0000\\t\\n\u007f\"")).isEqualTo(new JsonString("\u0000\t\n\u007f"));
  }

  @Test
  void everyValidEscapeIsAccepted() {
    assertThat(Json.parse("\"\\u004a\\u004A\\/\\b\\f\\r\"")).isEqualTo(new JsonString("JJ/\b\f\r"));
  }

  @Test
  void escapedSurrogatePairsAreAccepted() {
    // a raw lone surrogate in a Java string
    assertThat(Json.parse("\"\\ud83d\\ude00\"")).isEqualTo(new JsonString("\uD83D\uDE00"));
  }

  @Test
  void nestingUpToTheDepthLimitIsAcceptedAndBeyondRefusedWithoutStackOverflow() {
    String ok = "[".repeat(64) + "]".repeat(64);
    assertThat(Json.parse(ok)).isInstanceOf(JsonArray.class);
    JsonLimits deepest = new JsonLimits(8 << 20, JsonLimits.MAX_DEPTH, 1 << 20);
    assertThat(Json.parse("[".repeat(256) + "]".repeat(256), deepest)).isNotNull();
    refused("[".repeat(100_000), deepest, "$" + "[0]".repeat(256), "depth limit");
    assertThatThrownBy(() -> new JsonLimits(1, JsonLimits.MAX_DEPTH + 1, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aDocumentAtTheSizeLimitIsAccepted() {
    String hundred = "\"" + "x".repeat(98) + "\"";
    assertThat(Json.parse(hundred, new JsonLimits(100, 8, 1000))).isNotNull();
  }

  @Test
  void aStringAtTheLengthLimitIsAccepted() {
    assertThat(Json.parse("{\"a\":\"0123456789\"}", SMALL)).isNotNull();
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
  void numbersWithinADoubleAreAcceptedWithTheirTypes() {
    assertThat(Json.parse("1.7976931348623157e308")).isEqualTo(new JsonDecimal(Double.MAX_VALUE));
    assertThat(Json.parse("9007199254740991")).isEqualTo(new JsonInt(JsonInt.MAX_SAFE));
    // Beyond ±(2^53−1) an integer literal is a decimal, never a JsonInt (D16).
    assertThat(Json.parse("9007199254740992")).isInstanceOf(JsonDecimal.class);
    assertThat(Json.parse("1.0")).isInstanceOf(JsonDecimal.class);
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
