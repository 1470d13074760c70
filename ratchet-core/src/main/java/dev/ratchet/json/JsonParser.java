package dev.ratchet.json;

import dev.ratchet.error.RatchetException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/** Recursive descent over a string; one instance per document. Depth is bounded by the limits. */
final class JsonParser {
  /** Longest number literal accepted: more digits than any double or safe integer needs. */
  private static final int MAX_NUMBER_CHARS = 64;

  /** Literals some encoders emit for non-finite doubles; named in the refusal. */
  private static final String[] NON_FINITE = {"NaN", "Infinity", "-Infinity"};

  private final String s;
  private final JsonLimits limits;
  private int pos;

  JsonParser(String s, JsonLimits limits) {
    this.s = s;
    this.limits = limits;
  }

  JsonValue document() {
    skipWhitespace();
    JsonValue v = value(Loc.ROOT, 0);
    skipWhitespace();
    if (pos != s.length()) {
      throw fail(Loc.ROOT, "trailing data after the document");
    }
    return v;
  }

  private JsonValue value(Loc path, int depth) {
    if (pos >= s.length()) {
      throw fail(path, "unexpected end of input");
    }
    char c = s.charAt(pos);
    switch (c) {
      case '{':
        return object(path, depth + 1);
      case '[':
        return array(path, depth + 1);
      case '"':
        return new JsonString(string(path));
      case 't':
        literal(path, "true");
        return JsonBool.TRUE;
      case 'f':
        literal(path, "false");
        return JsonBool.FALSE;
      case 'n':
        literal(path, "null");
        return JsonNull.INSTANCE;
      default:
        for (String word : NON_FINITE) {
          if (s.startsWith(word, pos)) {
            throw fail(path, "non-finite number " + word + " is not allowed");
          }
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
          return number(path);
        }
        throw fail(path, "unexpected character " + describe(c));
    }
  }

  private JsonObject object(Loc path, int depth) {
    checkDepth(path, depth);
    pos++;
    LinkedHashMap<String, JsonValue> members = new LinkedHashMap<>();
    skipWhitespace();
    if (peek() == '}') {
      pos++;
      return JsonObject.of(members);
    }
    while (true) {
      skipWhitespace();
      if (peek() != '"') {
        throw fail(path, "expected a member name in double quotes");
      }
      String key = string(path);
      Loc child = new Loc(path, key, -1);
      skipWhitespace();
      expect(path, ':');
      skipWhitespace();
      JsonValue v = value(child, depth);
      if (members.putIfAbsent(key, v) != null) {
        throw fail(child, "duplicate key");
      }
      skipWhitespace();
      char c = peek();
      pos++;
      if (c == '}') {
        return JsonObject.of(members);
      }
      if (c != ',') {
        throw fail(path, "expected ',' or '}' in object");
      }
      skipWhitespace();
      if (peek() == '}') {
        throw fail(path, "trailing comma in object");
      }
    }
  }

  private JsonArray array(Loc path, int depth) {
    checkDepth(path, depth);
    pos++;
    List<JsonValue> items = new ArrayList<>();
    skipWhitespace();
    if (peek() == ']') {
      pos++;
      return new JsonArray(items);
    }
    while (true) {
      skipWhitespace();
      items.add(value(new Loc(path, null, items.size()), depth));
      skipWhitespace();
      char c = peek();
      pos++;
      if (c == ']') {
        return new JsonArray(items);
      }
      if (c != ',') {
        throw fail(path, "expected ',' or ']' in array");
      }
      skipWhitespace();
      if (peek() == ']') {
        throw fail(path, "trailing comma in array");
      }
    }
  }

  private String string(Loc path) {
    pos++; // opening quote
    StringBuilder out = new StringBuilder();
    while (true) {
      if (pos >= s.length()) {
        throw fail(path, "unterminated string");
      }
      char c = s.charAt(pos++);
      if (c == '"') {
        break;
      }
      if (c == '\\') {
        c = escape(path);
      } else if (c < 0x20) {
        throw fail(path, "unescaped control character in string");
      }
      out.append(c);
      if (out.length() > limits.maxStringLength()) {
        throw fail(path, "string longer than " + limits.maxStringLength() + " characters");
      }
    }
    requireWellFormed(path, out);
    return out.toString();
  }

  private char escape(Loc path) {
    if (pos >= s.length()) {
      throw fail(path, "unterminated escape");
    }
    char e = s.charAt(pos++);
    switch (e) {
      case '"':
        return '"';
      case '\\':
        return '\\';
      case '/':
        return '/';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case 'u':
        if (pos + 4 > s.length()) {
          throw fail(path, "truncated \\u escape");
        }
        int cp = 0;
        for (int i = 0; i < 4; i++) {
          int d = hexDigit(s.charAt(pos++));
          if (d < 0) {
            throw fail(path, "invalid hex digit in \\u escape");
          }
          cp = cp * 16 + d;
        }
        return (char) cp;
      default:
        throw fail(path, "invalid escape \\" + describe(e));
    }
  }

  /** ASCII hex only: {@link Character#digit} would also take fullwidth and other digits. */
  private static int hexDigit(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }

  private void requireWellFormed(Loc path, CharSequence text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw fail(path, "lone surrogate in string");
      }
    }
  }

  private JsonValue number(Loc path) {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    if (peek() == '0') {
      pos++;
      if (isDigit(peek())) {
        throw fail(path, "leading zero in number");
      }
    } else if (!digits()) {
      throw fail(path, "invalid number");
    }
    boolean integral = true;
    if (peek() == '.') {
      pos++;
      integral = false;
      if (!digits()) {
        throw fail(path, "digit expected after decimal point");
      }
    }
    if (peek() == 'e' || peek() == 'E') {
      pos++;
      integral = false;
      if (peek() == '+' || peek() == '-') {
        pos++;
      }
      if (!digits()) {
        throw fail(path, "digit expected in exponent");
      }
    }
    String literal = s.substring(start, pos);
    if (literal.length() > MAX_NUMBER_CHARS) {
      throw fail(path, "number literal longer than " + MAX_NUMBER_CHARS + " characters");
    }
    if (integral && literal.length() <= 17) {
      long v = Long.parseLong(literal);
      if (Math.abs(v) <= JsonInt.MAX_SAFE) {
        return new JsonInt(v);
      }
    }
    double d;
    try {
      d = new BigDecimal(literal).doubleValue();
    } catch (NumberFormatException e) {
      // BigDecimal refuses exponents beyond the int range (e.g. 1e99999999999).
      throw fail(path, "number exponent is out of range");
    }
    if (!Double.isFinite(d)) {
      throw fail(path, "number is out of range for IEEE-754 double");
    }
    return new JsonDecimal(d);
  }

  private boolean digits() {
    int start = pos;
    while (isDigit(peek())) {
      pos++;
    }
    return pos > start;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private void literal(Loc path, String word) {
    if (!s.startsWith(word, pos)) {
      throw fail(path, "invalid literal");
    }
    pos += word.length();
  }

  private void checkDepth(Loc path, int depth) {
    if (depth > limits.maxDepth()) {
      throw fail(path, "nesting deeper than " + limits.maxDepth() + " (depth limit)");
    }
  }

  private void expect(Loc path, char c) {
    if (peek() != c) {
      throw fail(path, "expected '" + c + "'");
    }
    pos++;
  }

  private char peek() {
    return pos < s.length() ? s.charAt(pos) : '\0';
  }

  private void skipWhitespace() {
    while (pos < s.length()) {
      char c = s.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private static String describe(char c) {
    return c >= 0x20 && c < 0x7f ? "'" + c + "'" : String.format("U+%04X", (int) c);
  }

  private RatchetException fail(Loc path, String rule) {
    return RatchetException.contract(path + ": " + rule + " (at offset " + pos + ")");
  }

  /**
   * Where the parser is, built as a chain and rendered only when an error names it: formatting
   * every member's path up front cost more than the parse itself.
   */
  private record Loc(Loc parent, String key, int index) {
    static final Loc ROOT = new Loc(null, null, -1);

    @Override
    public String toString() {
      if (parent == null) {
        return "$";
      }
      return key != null ? JsonPath.member(parent.toString(), key) : parent + "[" + index + "]";
    }
  }
}
