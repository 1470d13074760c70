package dev.ratchet.json;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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
    throw new UnsupportedOperationException("TODO");
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
