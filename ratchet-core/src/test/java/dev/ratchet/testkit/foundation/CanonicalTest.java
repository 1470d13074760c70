package dev.ratchet.testkit.foundation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonDecimal;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonLimits;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.testkit.RandomJson;
import dev.ratchet.testkit.Rules;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * RFC 8785 canonical JSON (SPEC D16): the RFC's own examples, every vector of {@code
 * ../shared/vectors/rfc8785} read in place, and a seeded check of the ECMAScript number form
 * against an independent oracle.
 */
@Rules("R1.4-canonical")
class CanonicalTest {
  private static final String VECTORS = "shared/vectors/rfc8785";

  private static String canonical(String json) {
    return Canonical.string(Json.parse(json));
  }

  private static String number(double d) {
    return Canonical.string(new JsonDecimal(d));
  }

  // ---------------------------------------------------------------- RFC 8785 text examples

  @Test
  void theRfcSampleOfSection3_2_4CanonicalisesToItsPublishedBytes() {
    String input =
        "{\n"
            + "  \"numbers\": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],\n"
            + "  \"string\": \"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\",\n"
            + "  \"literals\": [null, true, false]\n"
            + "}";
    String expected =
        "{\"literals\":[null,true,false],"
            + "\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
            + "\"string\":\"\u20ac$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}";
    assertThat(canonical(input)).isEqualTo(expected);
    // The RFC's hex rendering of the same output (Section 3.2.4), first and last bytes.
    byte[] bytes = Canonical.bytes(Json.parse(input));
    assertThat(HexFormat.of().formatHex(bytes, 0, 12)).isEqualTo("7b226c69746572616c73223a");
    assertThat(HexFormat.of().formatHex(bytes, bytes.length - 5, bytes.length))
        .isEqualTo("5c222f227d");
  }

  /** RFC 8785 Appendix B: IEEE-754 bit patterns and their required JSON text. */
  @Test
  void theRfcNumberTableOfAppendixBIsReproducedExactly() {
    Map<String, String> table = new LinkedHashMap<>();
    table.put("0000000000000000", "0");
    table.put("8000000000000000", "0"); // minus zero
    table.put("0000000000000001", "5e-324");
    table.put("8000000000000001", "-5e-324");
    table.put("7fefffffffffffff", "1.7976931348623157e+308");
    table.put("ffefffffffffffff", "-1.7976931348623157e+308");
    table.put("4340000000000000", "9007199254740992");
    table.put("c340000000000000", "-9007199254740992");
    table.put("4430000000000000", "295147905179352830000");
    table.put("44b52d02c7e14af5", "9.999999999999997e+22");
    table.put("44b52d02c7e14af6", "1e+23");
    table.put("44b52d02c7e14af7", "1.0000000000000001e+23");
    table.put("444b1ae4d6e2ef4e", "999999999999999700000");
    table.put("444b1ae4d6e2ef4f", "999999999999999900000");
    table.put("444b1ae4d6e2ef50", "1e+21");
    table.put("3eb0c6f7a0b5ed8c", "9.999999999999997e-7");
    table.put("3eb0c6f7a0b5ed8d", "0.000001");
    table.put("41b3de4355555553", "333333333.3333332");
    table.put("41b3de4355555554", "333333333.33333325");
    table.put("41b3de4355555555", "333333333.3333333");
    table.put("41b3de4355555556", "333333333.3333334");
    table.put("41b3de4355555557", "333333333.33333343");
    table.put("becbf647612f3696", "-0.0000033333333333333333");
    table.put("43143ff3c1cb0959", "1424953923781206.2");
    table.forEach(
        (bits, json) -> {
          double d = Double.longBitsToDouble(Long.parseUnsignedLong(bits, 16));
          assertThat(number(d)).as("IEEE-754 %s", bits).isEqualTo(json);
          // Parsing the required text and canonicalising it again is stable.
          assertThat(canonical(json)).as("reparse of %s", json).isEqualTo(json);
        });
  }

  @Test
  void numbersAtTheLayoutBoundariesFollowEcmaScript() {
    assertThat(number(-0.0)).isEqualTo("0");
    assertThat(number(1e21)).isEqualTo("1e+21");
    assertThat(number(1e20)).isEqualTo("100000000000000000000");
    assertThat(number(1e-7)).isEqualTo("1e-7");
    assertThat(number(1e-6)).isEqualTo("0.000001");
    assertThat(number(1.5e-7)).isEqualTo("1.5e-7");
    assertThat(number(5e-324)).isEqualTo("5e-324");
    assertThat(number(Double.MIN_NORMAL)).isEqualTo("2.2250738585072014e-308");
    assertThat(number(1.7976931348623157e308)).isEqualTo("1.7976931348623157e+308");
    assertThat(number(0.1 + 0.2)).isEqualTo("0.30000000000000004");
    assertThat(number(0.1)).isEqualTo("0.1");
    assertThat(number(1.0 / 3)).isEqualTo("0.3333333333333333");
    assertThat(number(-1.0 / 3)).isEqualTo("-0.3333333333333333");
    assertThat(number(100)).isEqualTo("100");
    assertThat(number(123.456)).isEqualTo("123.456");
    assertThat(number(4.5)).isEqualTo("4.5");
    assertThat(number(2e-3)).isEqualTo("0.002");
    // At a power of two the shortest digits lie above the value, not at the nearest rounding.
    assertThat(number(Math.scalb(1.0, -1017))).isEqualTo("7.120236347223045e-307");
    assertThat(number(Math.scalb(1.0, -296))).isEqualTo("7.854549544476363e-90");
    // Integers: the safe ones print as integers; 2^53 and beyond keep ECMAScript's digits.
    assertThat(Canonical.string(new JsonInt(JsonInt.MAX_SAFE))).isEqualTo("9007199254740991");
    assertThat(Canonical.string(new JsonInt(-JsonInt.MAX_SAFE))).isEqualTo("-9007199254740991");
    assertThat(canonical("18446744073709551616")).isEqualTo("18446744073709552000");
  }

  @Test
  void nonFiniteNumbersHaveNoJsonForm() {
    assertThatThrownBy(() -> new JsonDecimal(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new JsonDecimal(Double.POSITIVE_INFINITY))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new JsonDecimal(Double.NEGATIVE_INFINITY))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void stringsEscapeOnlyWhatTheRfcRequires() {
    StringBuilder controls = new StringBuilder();
    for (char c = 0; c < 0x20; c++) {
      controls.append(c);
    }
    String out = Canonical.string(new JsonString(controls + "\"\\/\u007f\u2028\u20ac\uD83D\uDE00"));
    assertThat(out)
        .isEqualTo(
            "\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007"
                + "\\b\\t\\n\\u000b\\f\\r\\u000e\\u000f"
                + "\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017"
                + "\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f"
                + "\\\"\\\\/\u007f\u2028\u20ac\uD83D\uDE00\"");
    // Non-ASCII is emitted as raw UTF-8, never as \\u escapes.
    assertThat(Canonical.bytes(new JsonString("\u20ac\uD83D\uDE00")))
        .containsExactly(
            0x22, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0x22); // AssertJ int varargs
    // Escaped input is normalised: "\/" becomes "/", "\u0041" becomes "A".
    assertThat(canonical("\"\\/\\u0041\\u00e9\"")).isEqualTo("\"/A\u00e9\"");
  }

  @Test
  void aLoneSurrogateInAStringCannotBeCanonicalised() {
    assertThatThrownBy(() -> Canonical.string(new JsonString("a\uD800b")))
        .hasMessageContaining("lone surrogate");
    assertThatThrownBy(() -> Canonical.string(new JsonString("\uDC00")))
        .hasMessageContaining("lone surrogate");
  }

  /** RFC 8785 Section 3.2.3: the sorting example, whose order differs from code point order. */
  @Test
  void keysSortByUtf16CodeUnitsIncludingSurrogatePairs() {
    String input =
        "{\n"
            + "  \"\\u20ac\": \"Euro Sign\",\n"
            + "  \"\\r\": \"Carriage Return\",\n"
            + "  \"\\ufb33\": \"Hebrew Letter Dalet With Dagesh\",\n"
            + "  \"1\": \"One\",\n"
            + "  \"\\ud83d\\ude00\": \"Emoji: Grinning Face\",\n"
            + "  \"\\u0080\": \"Control\",\n"
            + "  \"\\u00f6\": \"Latin Small Letter O With Diaeresis\"\n"
            + "}";
    String out = canonical(input);
    List<String> order = new ArrayList<>(((JsonObject) Json.parse(out)).members().keySet());
    assertThat(order)
        .containsExactly(
            "\r", "1", "\u0080", "\u00f6", "\u20ac", "\uD83D\uDE00", "\ufb33"); // RFC's order
    // By code point U+FB33 < U+1F600; by UTF-16 unit 0xD83D < 0xFB33, which is what counts.
    assertThat(out.indexOf("\uD83D\uDE00")).isLessThan(out.indexOf("\ufb33"));
    // Keys that share a prefix: the shorter sorts first; case is by code unit (upper first).
    assertThat(canonical("{\"ab\":1,\"a\":2,\"B\":3,\"b\":4,\"\":5}"))
        .isEqualTo("{\"\":5,\"B\":3,\"a\":2,\"ab\":1,\"b\":4}");
    // Member order of the input never matters.
    assertThat(canonical("{\"b\":[],\"a\":{\"d\":1,\"c\":2}}"))
        .isEqualTo(canonical("{\"a\":{\"c\":2,\"d\":1},\"b\":[]}"))
        .isEqualTo("{\"a\":{\"c\":2,\"d\":1},\"b\":[]}");
  }

  @Test
  void whitespaceIsDroppedAndLiteralsAreKept() {
    assertThat(canonical(" [ true , false , null , { } , [ ] , \"\" ] \n"))
        .isEqualTo("[true,false,null,{},[],\"\"]");
    assertThat(Canonical.string(JsonArray.EMPTY)).isEqualTo("[]");
    assertThat(Canonical.string(JsonObject.EMPTY)).isEqualTo("{}");
  }

  @Test
  void sha256IsOverTheCanonicalBytes() {
    JsonValue v = Json.parse("{ \"b\" : 1, \"a\" : \"x\" }");
    // echo -n '{"a":"x","b":1}' | sha256sum
    assertThat(Canonical.sha256Hex(v))
        .isEqualTo(Canonical.sha256Hex("{\"a\":\"x\",\"b\":1}"))
        .isEqualTo(sha256("{\"a\":\"x\",\"b\":1}"));
  }

  static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              java.security.MessageDigest.getInstance("SHA-256")
                  .digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  // ---------------------------------------------------------------- shared vectors

  /**
   * Finds the vectors: {@code RATCHET_VECTORS} if set; else {@code shared/vectors/rfc8785} walking
   * up from the working directory (the shared folder sits beside a checkout); else the workplace's
   * own copy under {@code /work/shared}, for clones made elsewhere on the same machine.
   */
  static Optional<Path> vectorFolder() {
    String override = System.getenv("RATCHET_VECTORS");
    if (override != null && !override.isBlank()) {
      Path p = Path.of(override);
      return Files.isDirectory(p.resolve("input")) ? Optional.of(p) : Optional.empty();
    }
    Optional<Path> beside = walkUp(Path.of("").toAbsolutePath());
    return beside.isPresent() ? beside : walkUp(Path.of("/work"));
  }

  private static Optional<Path> walkUp(Path start) {
    Path dir = start;
    while (dir != null) {
      Path candidate = dir.resolve(VECTORS);
      if (Files.isDirectory(candidate.resolve("input"))) {
        return Optional.of(candidate);
      }
      dir = dir.getParent();
    }
    return Optional.empty();
  }

  @TestFactory
  Stream<DynamicTest> everySharedVectorCanonicalisesToItsOutputBytes() throws IOException {
    Optional<Path> folder = vectorFolder();
    if (folder.isEmpty()) {
      String message =
          "RFC 8785 vectors not found: no "
              + VECTORS
              + " above "
              + Path.of("").toAbsolutePath()
              + "; the shared vector test is SKIPPED (the RFC examples above still run)";
      if ("true".equals(System.getenv("CI"))) {
        fail(message + " — but CI=true, where the vectors must be present");
      }
      System.out.println("[CanonicalTest] " + message);
      Assumptions.abort(message);
    }
    Path root = folder.get();
    List<Path> inputs;
    try (Stream<Path> s = Files.list(root.resolve("input"))) {
      inputs = s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
    }
    assertThat(inputs).as("vector inputs in %s", root).isNotEmpty();
    return inputs.stream()
        .map(
            input ->
                DynamicTest.dynamicTest(
                    input.getFileName().toString(), () -> checkVector(root, input)));
  }

  private static void checkVector(Path root, Path input) throws IOException {
    String name = input.getFileName().toString();
    String stem = name.substring(0, name.length() - ".json".length());
    byte[] expected = Files.readAllBytes(root.resolve("output").resolve(name));
    String hex = Files.readString(root.resolve("outhex").resolve(stem + ".txt"));
    byte[] fromHex = HexFormat.of().parseHex(hex.replaceAll("\\s+", ""));
    assertThat(fromHex).as("outhex/%s.txt agrees with output/%s", stem, name).isEqualTo(expected);

    JsonValue parsed = Json.parse(Files.readAllBytes(input), JsonLimits.DEFAULT);
    byte[] actual = Canonical.bytes(parsed);
    assertThat(new String(actual, StandardCharsets.UTF_8))
        .as("canonical form of input/%s", name)
        .isEqualTo(new String(expected, StandardCharsets.UTF_8));
    assertThat(actual).as("canonical bytes of input/%s", name).isEqualTo(expected);
    // The canonical output is a fixed point.
    assertThat(Canonical.bytes(Json.parse(expected, JsonLimits.DEFAULT))).isEqualTo(expected);
  }

  // ---------------------------------------------------------------- ECMAScript numbers

  private static final Pattern PLAIN = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]*[1-9])?");
  private static final Pattern EXPONENT =
      Pattern.compile("-?[1-9](\\.[0-9]*[1-9])?e[+-][1-9][0-9]*");
  private static final BigDecimal E21 = new BigDecimal("1e21");
  private static final BigDecimal E_6 = new BigDecimal("1e-6");

  /**
   * The oracle, independent of the implementation's search: (1) the text reads back as the double
   * through {@link Double#parseDouble}; (2) neither k−1-digit neighbour of the exact value reads
   * back (any shorter decimal that did would, padded with zeros, be one of them or lie between
   * them); (3) of the k-digit neighbours that read back, the text is the closest; (4) the layout is
   * ECMAScript's: plain for 1e-6 ≤ |x| < 1e21, exponent form otherwise, no superfluous zeros.
   */
  static String checkShortest(double d, long seed, String where) {
    String out = number(d);
    String context = "seed " + seed + ", " + where + ", double " + d + " -> " + out;
    if (d == 0) {
      if (!out.equals("0")) {
        fail(context + ": zero must print as 0");
      }
      return out;
    }
    if (Double.parseDouble(out) != d) {
      fail(context + ": does not read back");
    }
    BigDecimal printed = new BigDecimal(out).abs();
    BigDecimal magnitude = printed.stripTrailingZeros();
    int k = magnitude.precision();
    BigDecimal exact = new BigDecimal(Math.abs(d));
    if (k > 1) {
      for (RoundingMode mode : new RoundingMode[] {RoundingMode.FLOOR, RoundingMode.CEILING}) {
        BigDecimal shorter = exact.round(new MathContext(k - 1, mode));
        if (Double.parseDouble(shorter.toString()) == Math.abs(d)) {
          fail(context + ": the shorter " + shorter + " also reads back");
        }
      }
    }
    BigDecimal below = exact.round(new MathContext(k, RoundingMode.FLOOR));
    BigDecimal above = exact.round(new MathContext(k, RoundingMode.CEILING));
    BigDecimal best = null;
    for (BigDecimal c : new BigDecimal[] {below, above}) {
      if (Double.parseDouble(c.toString()) == Math.abs(d)) {
        if (best == null || c.subtract(exact).abs().compareTo(best.subtract(exact).abs()) < 0) {
          best = c;
        }
      }
    }
    if (best == null) {
      fail(context + ": no " + k + "-digit neighbour of the exact value reads back");
    }
    boolean tie = best.subtract(exact).abs().compareTo(magnitude.subtract(exact).abs()) == 0;
    if (best.compareTo(magnitude) != 0 && !tie) {
      fail(context + ": not the closest " + k + "-digit decimal (expected " + best + ")");
    }
    boolean plain = magnitude.compareTo(E_6) >= 0 && magnitude.compareTo(E21) < 0;
    if (!(plain ? PLAIN : EXPONENT).matcher(out).matches()) {
      fail(context + ": not in ECMAScript " + (plain ? "plain" : "exponent") + " layout");
    }
    if ((out.charAt(0) == '-') != (d < 0)) {
      fail(context + ": wrong sign");
    }
    return out;
  }

  @Test
  void ecmaNumbersAreShortestClosestAndReadBackForRandomDoubles() {
    long seed = 0x5EED_8785L;
    Random random = new Random(seed);
    int checked = 0;
    for (int i = 0; i < 60_000; i++) {
      double d = Double.longBitsToDouble(random.nextLong());
      if (Double.isFinite(d)) {
        checkShortest(d, seed, "random bits #" + i);
        checked++;
      }
    }
    for (int i = 0; i < 50_000; i++) {
      String literal = RandomJson.randomDecimalString(random);
      double d = Double.parseDouble(literal);
      if (!Double.isFinite(d)) {
        continue;
      }
      String out = checkShortest(d, seed, "decimal string #" + i + " " + literal);
      // The literal itself reads back, so the shortest form has at most its digits.
      int literalDigits = new BigDecimal(literal).stripTrailingZeros().precision();
      int outDigits = new BigDecimal(out).stripTrailingZeros().precision();
      if (d != 0 && outDigits > literalDigits) {
        fail("seed " + seed + ", " + literal + " -> " + out + ": longer than the literal");
      }
      checked++;
    }
    assertThat(checked).isGreaterThanOrEqualTo(100_000);
  }

  @Test
  void ecmaNumbersAreShortestAtEveryPowerOfTwoAndItsNeighbours() {
    // Where the spacing of doubles halves, the interval that reads back is lopsided: the shortest
    // digits can lie on the far side of the value.
    for (int e = -1074; e <= 1023; e++) {
      double p = Math.scalb(1.0, e);
      for (double d : new double[] {p, Math.nextUp(p), Math.nextDown(p), -p}) {
        if (Double.isFinite(d) && d != 0) {
          checkShortest(d, 0, "2^" + e + " neighbourhood");
        }
      }
    }
    for (long m = 1; m < 1000; m++) {
      checkShortest(m / 10.0, 0, "m/10");
      checkShortest(m * 1e-7, 0, "m*1e-7");
      checkShortest(m * 1e20, 0, "m*1e20");
    }
  }
}
