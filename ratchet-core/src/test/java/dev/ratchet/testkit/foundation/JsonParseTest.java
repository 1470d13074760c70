package dev.ratchet.testkit.foundation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonBool;
import dev.ratchet.json.JsonDecimal;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonLimits;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.testkit.RandomJson;
import dev.ratchet.testkit.Rules;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The strict parser (SPEC §3, D16): every refusal is a {@code CONTRACT} error whose message names
 * the path and the rule; a seeded round trip over generated documents; a seeded fuzz in which
 * mutated documents never raise anything but {@code CONTRACT}.
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

  // ---------------------------------------------------------------- seeded round trip

  /**
   * A non-canonical rendering: members shuffled, random whitespace, characters randomly escaped as
   * {@code \\uXXXX} (either case), {@code /} as {@code \\/}, decimals in Java's own notation.
   */
  static String noisy(JsonValue v, Random r) {
    StringBuilder b = new StringBuilder();
    noisy(v, r, b);
    return b.toString();
  }

  private static void ws(Random r, StringBuilder b) {
    int n = r.nextInt(4) == 0 ? r.nextInt(3) : 0;
    for (int i = 0; i < n; i++) {
      b.append(" \t\r\n".charAt(r.nextInt(4)));
    }
  }

  private static void noisy(JsonValue v, Random r, StringBuilder b) {
    ws(r, b);
    if (v instanceof JsonObject o) {
      List<Map.Entry<String, JsonValue>> members = new ArrayList<>(o.members().entrySet());
      Collections.shuffle(members, r);
      b.append('{');
      for (int i = 0; i < members.size(); i++) {
        if (i > 0) {
          b.append(',');
        }
        ws(r, b);
        noisyString(members.get(i).getKey(), r, b);
        ws(r, b);
        b.append(':');
        noisy(members.get(i).getValue(), r, b);
      }
      ws(r, b);
      b.append('}');
    } else if (v instanceof JsonArray a) {
      b.append('[');
      for (int i = 0; i < a.size(); i++) {
        if (i > 0) {
          b.append(',');
        }
        noisy(a.get(i), r, b);
      }
      ws(r, b);
      b.append(']');
    } else if (v instanceof JsonString s) {
      noisyString(s.value(), r, b);
    } else if (v instanceof JsonDecimal d) {
      // Java's repr also reads back exactly; the parser must give the same double.
      b.append(r.nextBoolean() ? Double.toString(d.value()) : Canonical.string(d));
    } else {
      b.append(Canonical.string(v));
    }
    ws(r, b);
  }

  private static void noisyString(String s, Random r, StringBuilder b) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == '"' || c == '\\' || r.nextInt(8) == 0) {
        b.append(String.format(r.nextBoolean() ? "\\u%04x" : "\\u%04X", (int) c));
      } else if (c == '/' && r.nextBoolean()) {
        b.append("\\/");
      } else {
        b.append(c);
      }
    }
    b.append('"');
  }

  @Test
  void tenThousandGeneratedDocumentsRoundTripThroughTheirCanonicalForm() {
    long seed = 0x10_000L;
    RandomJson gen = new RandomJson(seed);
    Random noise = new Random(seed + 1);
    for (int i = 0; i < 10_000; i++) {
      JsonValue x = gen.document(5);
      String where = "seed " + seed + ", document #" + i;
      String c = Canonical.string(x);
      JsonValue parsed = Json.parse(c);
      if (!parsed.equals(x)) {
        fail(where + ": parse(canonical(x)) != x for " + c);
      }
      if (!Canonical.string(parsed).equals(c)) {
        fail(where + ": canonical form is not idempotent for " + c);
      }
      if (!Json.parse(Canonical.bytes(x), JsonLimits.DEFAULT).equals(x)) {
        fail(where + ": the byte entry point disagrees for " + c);
      }
      String n = noisy(x, noise);
      JsonValue fromNoisy = Json.parse(n);
      if (!fromNoisy.equals(x) || !Canonical.string(fromNoisy).equals(c)) {
        fail(where + ": a non-canonical rendering parses differently: " + n);
      }
    }
  }

  // ---------------------------------------------------------------- seeded fuzz

  private static final byte[] INTERESTING =
      "{}[]\",:\\-+.eE0129tfnu \t\n".getBytes(StandardCharsets.US_ASCII);

  static byte[] mutate(byte[] in, Random r) {
    List<Byte> b = new ArrayList<>(in.length + 8);
    for (byte x : in) {
      b.add(x);
    }
    int rounds = 1 + r.nextInt(3);
    for (int k = 0; k < rounds; k++) {
      int pos = b.isEmpty() ? 0 : r.nextInt(b.size());
      switch (r.nextInt(7)) {
        case 0 -> {
          if (!b.isEmpty()) {
            b.set(pos, (byte) r.nextInt(256));
          }
        }
        case 1 -> {
          if (!b.isEmpty()) {
            b.set(pos, INTERESTING[r.nextInt(INTERESTING.length)]);
          }
        }
        case 2 -> {
          if (!b.isEmpty()) {
            b.remove(pos);
          }
        }
        case 3 -> b.add(pos, INTERESTING[r.nextInt(INTERESTING.length)]);
        case 4 -> b.add(pos, (byte) (0x80 + r.nextInt(128)));
        case 5 -> {
          // Duplicate a slice: repeats keys, opens extra containers.
          int end = Math.min(b.size(), pos + 1 + r.nextInt(16));
          b.addAll(end, new ArrayList<>(b.subList(pos, end)));
        }
        default -> {
          while (b.size() > pos) {
            b.remove(b.size() - 1);
          }
        }
      }
    }
    byte[] out = new byte[b.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = b.get(i);
    }
    return out;
  }

  @Test
  void mutatedDocumentsAreRefusedOnlyWithContractErrors() {
    long seed = 0xF022L;
    RandomJson gen = new RandomJson(seed);
    Random r = new Random(seed);
    JsonLimits tight = new JsonLimits(4096, 6, 64);
    int refusedCount = 0;
    int accepted = 0;
    for (int i = 0; i < 20_000; i++) {
      JsonValue x = gen.document(4);
      byte[] valid =
          (i % 2 == 0 ? Canonical.string(x) : noisy(x, r)).getBytes(StandardCharsets.UTF_8);
      byte[] m = mutate(valid, r);
      JsonLimits limits = i % 5 == 0 ? tight : JsonLimits.DEFAULT;
      for (int entry = 0; entry < 2; entry++) {
        try {
          JsonValue v =
              entry == 0
                  ? Json.parse(m, limits)
                  : Json.parse(new String(m, StandardCharsets.ISO_8859_1), limits);
          accepted++;
          String c = Canonical.string(v);
          if (!Canonical.string(Json.parse(c)).equals(c)) {
            fail("seed " + seed + ", mutation #" + i + ": accepted but not stable: " + c);
          }
        } catch (RatchetException e) {
          if (e.code() != ErrorCode.CONTRACT || !e.getMessage().startsWith("$")) {
            fail("seed " + seed + ", mutation #" + i + ": " + e + " for " + hex(m), e);
          }
          refusedCount++;
        } catch (Throwable t) {
          fail("seed " + seed + ", mutation #" + i + ": " + t + " for " + hex(m), t);
        }
      }
    }
    assertThat(refusedCount).as("most mutations break the document").isGreaterThan(accepted);
  }

  @Test
  void nestingBombsAndValueSoupAreRefusedOnlyWithContractErrors() {
    long seed = 0xB0B0L;
    Random r = new Random(seed);
    String[] atoms = {"[", "]", "{", "}", "\"a\":", ",", "1", "\"", "\\", "-", "e", "null", " "};
    for (int i = 0; i < 2_000; i++) {
      StringBuilder b = new StringBuilder();
      if (i % 10 == 0) {
        b.append((r.nextBoolean() ? "[" : "{\"k\":").repeat(1 + r.nextInt(20_000)));
      } else {
        int n = r.nextInt(200);
        for (int k = 0; k < n; k++) {
          b.append(atoms[r.nextInt(atoms.length)]);
        }
      }
      String text = b.toString();
      try {
        Json.parse(text);
      } catch (RatchetException e) {
        if (e.code() != ErrorCode.CONTRACT) {
          fail("seed " + seed + ", case #" + i + ": " + e, e);
        }
      } catch (Throwable t) {
        fail("seed " + seed + ", case #" + i + ": " + t, t);
      }
    }
  }

  private static String hex(byte[] b) {
    String h = HexFormat.of().formatHex(b);
    return h.length() > 400 ? h.substring(0, 400) + "…" : h;
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
