package dev.ratchet.json;

import dev.ratchet.error.RatchetException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/** RFC 8785 canonical JSON (SPEC D16): the only byte form Ratchet hashes or signs. */
public final class Canonical {
  // One digest per thread: MessageDigest.getInstance (a provider lookup) cost as much as hashing a
  // short record; digest() resets it, and it is never handed out.
  private static final ThreadLocal<MessageDigest> SHA256 =
      ThreadLocal.withInitial(Canonical::newSha256);

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

  /**
   * The canonical text of {@code o} and where a member {@code key}, absent from {@code o}, goes in
   * it: {@link Opening#with} then gives the canonical text of {@code o.with(key, value)} without
   * writing {@code o} again (a record's MAC covers the digest of its body, then joins it).
   */
  public static Opening opening(JsonObject o, String key) {
    if (o.has(key)) {
      throw new IllegalArgumentException("the object already has member " + key);
    }
    StringBuilder out = new StringBuilder(128);
    int at = writeObject(o, out, key);
    return new Opening(out.toString(), at, key);
  }

  /** A canonical object text with the place of one more member; see {@link #opening}. */
  public record Opening(String text, int at, String key) {
    /** The canonical text of the object with {@code key: value} added. */
    public String with(JsonValue value) {
      StringBuilder out = new StringBuilder(text.length() + 96);
      if (at == 1) { // first member: after '{', before the next member's key if there is one
        out.append('{');
        writeString(key, out);
        out.append(':');
        write(value, out);
        out.append(text.length() > 2 ? "," : "").append(text, 1, text.length());
      } else { // after the previous member, before its following comma or the '}'
        out.append(text, 0, at).append(',');
        writeString(key, out);
        out.append(':');
        write(value, out);
        out.append(text, at, text.length());
      }
      return out.toString();
    }
  }

  private static void writeObject(JsonObject o, StringBuilder out) {
    writeObject(o, out, null);
  }

  /**
   * Writes {@code o}; returns the offset in {@code out} where a member {@code gap} would go (just
   * after the last member whose key sorts before it, or after the brace), or -1 if {@code gap} is
   * null.
   */
  private static int writeObject(JsonObject o, StringBuilder out, String gap) {
    // RFC 8785 §3.2.3: keys sorted by UTF-16 code units, which is String.compareTo.
    String[] keys = o.members().keySet().toArray(new String[0]);
    Arrays.sort(keys);
    out.append('{');
    int at = gap == null ? -1 : out.length();
    for (int i = 0; i < keys.length; i++) {
      if (i > 0) {
        out.append(',');
      }
      writeString(keys[i], out);
      out.append(':');
      write(o.members().get(keys[i]), out);
      if (gap != null && keys[i].compareTo(gap) < 0) {
        at = out.length();
      }
    }
    out.append('}');
    return at;
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
    return HexFormat.of().formatHex(SHA256.get().digest(bytes));
  }

  private static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
