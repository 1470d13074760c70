package dev.ratchet.testkit;

import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonBool;
import dev.ratchet.json.JsonDecimal;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A seeded generator of JSON documents for round-trip and fuzz tests. Every document follows from
 * the seed, so a failure reproduces with the seed it prints.
 *
 * <p>The documents stress what canonicalisation must get right: strings with every kind of
 * character that needs escaping or careful ordering (controls, quotes, backslashes, DEL, U+2028,
 * surrogate pairs outside the BMP, characters above U+E000 that sort after surrogates), keys that
 * share prefixes, integers at the edges of ±(2^53−1), and doubles from raw bit patterns and from
 * decimal strings.
 *
 * <p>Numbers are generated in the form the parser gives back: a {@link JsonInt} for every integer
 * within ±(2^53−1) and a {@link JsonDecimal} only for values that are not such an integer (a {@code
 * JsonDecimal(1.0)} canonicalises to {@code 1}, which parses as a {@code JsonInt}). With that, a
 * generated value equals the parse of its canonical form.
 */
public final class RandomJson {
  private static final String ASCII_SPECIALS = "\"\\/\b\f\n\r\t\u0000\u001f\u007f 0{}[]:,";
  private static final int[] INTERESTING_CODE_POINTS = {
    0x80, 0xe9, 0xf6, 0x2028, 0x2029, 0x20ac, 0xd7ff, 0xe000, 0xfb33, 0xfeff, 0xfffd, 0xffff,
    0x10000, 0x1f600, 0x10ffff
  };

  private final Random random;
  private final long seed;

  public RandomJson(long seed) {
    this.seed = seed;
    this.random = new Random(seed);
  }

  public long seed() {
    return seed;
  }

  /** The generator's random source, for tests that derive further choices from the same seed. */
  public Random random() {
    return random;
  }

  /** A document: an object or array nested at most {@code maxDepth} levels. */
  public JsonValue document(int maxDepth) {
    return random.nextInt(4) == 0 ? array(maxDepth) : object(maxDepth);
  }

  /** Any value; containers nest at most {@code maxDepth} levels. */
  public JsonValue value(int maxDepth) {
    int pick = random.nextInt(maxDepth > 0 ? 10 : 7);
    return switch (pick) {
      case 0 -> JsonNull.INSTANCE;
      case 1 -> JsonBool.of(random.nextBoolean());
      case 2, 3 -> new JsonString(string(24));
      case 4 -> integer();
      case 5 -> decimal();
      case 6 -> random.nextBoolean() ? integer() : new JsonString(string(4));
      case 7, 8 -> object(maxDepth);
      default -> array(maxDepth);
    };
  }

  public JsonObject object(int maxDepth) {
    int n = random.nextInt(6);
    Map<String, JsonValue> members = new LinkedHashMap<>();
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String key;
      if (!keys.isEmpty() && random.nextInt(3) == 0) {
        // A key sharing a prefix with an earlier one: ordering must compare past the prefix.
        String base = keys.get(random.nextInt(keys.size()));
        int cut = random.nextInt(base.codePointCount(0, base.length()) + 1);
        key = base.substring(0, base.offsetByCodePoints(0, cut)) + string(3);
      } else {
        key = string(8);
      }
      keys.add(key);
      members.put(key, value(maxDepth - 1));
    }
    return JsonObject.of(members);
  }

  public JsonArray array(int maxDepth) {
    int n = random.nextInt(6);
    List<JsonValue> items = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      items.add(value(maxDepth - 1));
    }
    return new JsonArray(items);
  }

  /** A well-formed string (no lone surrogates) of at most {@code maxCodePoints} code points. */
  public String string(int maxCodePoints) {
    int n = random.nextInt(maxCodePoints + 1);
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.appendCodePoint(codePoint());
    }
    return b.toString();
  }

  private int codePoint() {
    int pick = random.nextInt(10);
    return switch (pick) {
      case 0, 1, 2, 3 -> 'a' + random.nextInt(26);
      case 4 -> ASCII_SPECIALS.charAt(random.nextInt(ASCII_SPECIALS.length()));
      case 5 -> random.nextInt(0x80);
      case 6 -> INTERESTING_CODE_POINTS[random.nextInt(INTERESTING_CODE_POINTS.length)];
      case 7 -> 0x10000 + random.nextInt(0x10ffff - 0x10000 + 1);
      default -> {
        int cp;
        do {
          cp = random.nextInt(0x10000);
        } while (Character.isSurrogate((char) cp));
        yield cp;
      }
    };
  }

  /** An integer within ±(2^53−1), often at an edge. */
  public JsonInt integer() {
    long v =
        switch (random.nextInt(6)) {
          case 0 -> random.nextInt(21) - 10;
          case 1 -> JsonInt.MAX_SAFE - random.nextInt(3);
          case 2 -> -JsonInt.MAX_SAFE + random.nextInt(3);
          case 3 -> random.nextInt();
          default -> (random.nextLong() % JsonInt.MAX_SAFE);
        };
    return new JsonInt(v);
  }

  /** A finite number that is not an integer within ±(2^53−1). */
  public JsonDecimal decimal() {
    while (true) {
      double d = randomDouble(random);
      if (!(d == Math.rint(d) && Math.abs(d) <= JsonInt.MAX_SAFE)) {
        return new JsonDecimal(d);
      }
    }
  }

  /**
   * A finite double: from a random bit pattern (every binade equally likely, subnormals included),
   * from a random short decimal string, or a simple fraction.
   */
  public static double randomDouble(Random random) {
    while (true) {
      double d =
          switch (random.nextInt(3)) {
            case 0 -> Double.longBitsToDouble(random.nextLong());
            case 1 -> Double.parseDouble(randomDecimalString(random));
            default -> (random.nextInt(2001) - 1000) / (double) (1 + random.nextInt(1000));
          };
      if (Double.isFinite(d)) {
        return d;
      }
    }
  }

  /** A decimal literal with 1 to 17 significant digits and an exponent in ±330. */
  public static String randomDecimalString(Random random) {
    int digits = 1 + random.nextInt(17);
    StringBuilder b = new StringBuilder();
    if (random.nextBoolean()) {
      b.append('-');
    }
    b.append((char) ('1' + random.nextInt(9)));
    for (int i = 1; i < digits; i++) {
      b.append((char) ('0' + random.nextInt(10)));
    }
    b.append('e').append(random.nextInt(661) - 330);
    return b.toString();
  }
}
