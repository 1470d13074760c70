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
import dev.ratchet.testkit.Rules;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

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

  static String number(double d) {
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
  @ParameterizedTest(name = "IEEE-754 {0} is {1}")
  @CsvSource({
    "0000000000000000, 0",
    "8000000000000000, 0", // minus zero
    "0000000000000001, 5e-324",
    "8000000000000001, -5e-324",
    "7fefffffffffffff, 1.7976931348623157e+308",
    "ffefffffffffffff, -1.7976931348623157e+308",
    "4340000000000000, 9007199254740992",
    "c340000000000000, -9007199254740992",
    "4430000000000000, 295147905179352830000",
    "44b52d02c7e14af5, 9.999999999999997e+22",
    "44b52d02c7e14af6, 1e+23",
    "44b52d02c7e14af7, 1.0000000000000001e+23",
    "444b1ae4d6e2ef4e, 999999999999999700000",
    "444b1ae4d6e2ef4f, 999999999999999900000",
    "444b1ae4d6e2ef50, 1e+21",
    "3eb0c6f7a0b5ed8c, 9.999999999999997e-7",
    "3eb0c6f7a0b5ed8d, 0.000001",
    "41b3de4355555553, 333333333.3333332",
    "41b3de4355555554, 333333333.33333325",
    "41b3de4355555555, 333333333.3333333",
    "41b3de4355555556, 333333333.3333334",
    "41b3de4355555557, 333333333.33333343",
    "becbf647612f3696, -0.0000033333333333333333",
    "43143ff3c1cb0959, 1424953923781206.2"
  })
  void theRfcNumberTableOfAppendixBIsReproducedExactly(String bits, String json) {
    double d = Double.longBitsToDouble(Long.parseUnsignedLong(bits, 16));
    assertThat(number(d)).as("IEEE-754 %s", bits).isEqualTo(json);
    // Parsing the required text and canonicalising it again is stable.
    assertThat(canonical(json)).as("reparse of %s", json).isEqualTo(json);
  }

  /**
   * Doubles (Java literals; hex floats for exact powers of two) at the layout boundaries, with the
   * ECMAScript text they must print as.
   */
  @ParameterizedTest(name = "{0} prints as {1}")
  @CsvSource({
    "-0.0, 0",
    "1e21, 1e+21",
    "1e20, 100000000000000000000",
    "1e-7, 1e-7",
    "1e-6, 0.000001",
    "1.5e-7, 1.5e-7",
    "5e-324, 5e-324",
    "0x1p-1022, 2.2250738585072014e-308", // Double.MIN_NORMAL
    "1.7976931348623157e308, 1.7976931348623157e+308",
    "0.30000000000000004, 0.30000000000000004", // 0.1 + 0.2
    "0.1, 0.1",
    "0.3333333333333333, 0.3333333333333333", // 1.0 / 3
    "-0.3333333333333333, -0.3333333333333333", // -1.0 / 3
    "100, 100",
    "123.456, 123.456",
    "4.5, 4.5",
    "2e-3, 0.002",
    // At a power of two the shortest digits lie above the value, not at the nearest rounding.
    "0x1p-1017, 7.120236347223045e-307",
    "0x1p-296, 7.854549544476363e-90"
  })
  void numbersAtTheLayoutBoundariesFollowEcmaScript(String literal, String json) {
    assertThat(number(Double.parseDouble(literal))).isEqualTo(json);
  }

  @Test
  void integersPrintAsIntegersUpToTheSafeLimitAndKeepEcmaDigitsBeyond() {
    assertThat(number(0.1 + 0.2)).isEqualTo("0.30000000000000004");
    assertThat(number(1.0 / 3)).isEqualTo("0.3333333333333333");
    assertThat(number(Double.MIN_NORMAL)).isEqualTo("2.2250738585072014e-308");
    assertThat(Canonical.string(new JsonInt(JsonInt.MAX_SAFE))).isEqualTo("9007199254740991");
    assertThat(Canonical.string(new JsonInt(-JsonInt.MAX_SAFE))).isEqualTo("-9007199254740991");
    assertThat(canonical("18446744073709551616")).isEqualTo("18446744073709552000");
  }

  @ParameterizedTest
  @ValueSource(doubles = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY})
  void nonFiniteNumbersHaveNoJsonForm(double d) {
    assertThatThrownBy(() -> new JsonDecimal(d)).isInstanceOf(IllegalArgumentException.class);
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
}
