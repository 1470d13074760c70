package dev.ratchet.json;

import dev.ratchet.error.RatchetException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/** RFC 8785 canonical JSON (SPEC D16): the only byte form Ratchet hashes or signs. */
public final class Canonical {
  private Canonical() {}

  /** The canonical UTF-8 bytes of {@code value}. */
  public static byte[] bytes(JsonValue value) {
    return string(value).getBytes(StandardCharsets.UTF_8);
  }

  /** The canonical text of {@code value}. */
  public static String string(JsonValue value) {
    StringBuilder out = new StringBuilder(128);
    write(value, out);
    return out.toString();
  }

  private static void write(JsonValue value, StringBuilder out) {
    if (value instanceof JsonObject o) {
      writeObject(o, out);
    } else if (value instanceof JsonArray a) {
      out.append('[');
      for (int i = 0; i < a.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        write(a.get(i), out);
      }
      out.append(']');
    } else if (value instanceof JsonString s) {
      writeString(s.value(), out);
    } else if (value instanceof JsonInt i) {
      out.append(i.value());
    } else if (value instanceof JsonDecimal d) {
      out.append(EcmaNumber.format(d.value()));
    } else if (value instanceof JsonBool b) {
      out.append(b.value());
    } else {
      out.append("null");
    }
  }

  private static void writeObject(JsonObject o, StringBuilder out) {
    // RFC 8785 §3.2.3: keys sorted by UTF-16 code units, which is String.compareTo.
    String[] keys = o.members().keySet().toArray(new String[0]);
    Arrays.sort(keys);
    out.append('{');
    for (int i = 0; i < keys.length; i++) {
      if (i > 0) {
        out.append(',');
      }
      writeString(keys[i], out);
      out.append(':');
      write(o.members().get(keys[i]), out);
    }
    out.append('}');
  }

  private static void writeString(String s, StringBuilder out) {
    // Most strings need no escape: copy the run before the first character that does in one go.
    int plain = plainPrefix(s);
    out.append('"').append(s, 0, plain);
    for (int i = plain; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else if (Character.isSurrogate(c)) {
            if (Character.isHighSurrogate(c)
                && i + 1 < s.length()
                && Character.isLowSurrogate(s.charAt(i + 1))) {
              out.append(c).append(s.charAt(++i));
            } else {
              throw RatchetException.contract(
                  "canonical JSON: string contains a lone surrogate at index " + i);
            }
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  /** The length of the longest prefix of {@code s} written as it is (no escape, no surrogate). */
  private static int plainPrefix(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == '"' || c == '\\' || Character.isSurrogate(c)) {
        return i;
      }
    }
    return s.length();
  }

  /** Lowercase hex SHA-256 of the canonical bytes of {@code value}. */
  public static String sha256Hex(JsonValue value) {
    return sha256Hex(bytes(value));
  }

  /** Lowercase hex SHA-256 of the UTF-8 bytes of {@code text} (not re-canonicalised). */
  public static String sha256Hex(String text) {
    return sha256Hex(text.getBytes(StandardCharsets.UTF_8));
  }

  public static String sha256Hex(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
