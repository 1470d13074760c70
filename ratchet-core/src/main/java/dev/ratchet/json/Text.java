package dev.ratchet.json;

import dev.ratchet.error.RatchetException;

/**
 * The primitive text rules used everywhere (reference-behaviour §1.3, decided in
 * docs/decisions.md): "text" is a string with at least one non-whitespace character ({@link
 * String#isBlank}), at most 200 Unicode code points, never trimmed.
 */
public final class Text {
  public static final int MAX_TEXT = 200;

  private Text() {}

  /** Returns {@code value} if it is text of at most {@link #MAX_TEXT} code points. */
  public static String require(String field, String value) {
    return require(field, value, MAX_TEXT);
  }

  public static String require(String field, String value, int maxCodePoints) {
    if (value == null) {
      throw RatchetException.contract(field + ": must be a string");
    }
    if (value.isBlank()) {
      throw RatchetException.contract(field + ": must not be empty or blank");
    }
    if (value.codePointCount(0, value.length()) > maxCodePoints) {
      throw RatchetException.contract(field + ": must be at most " + maxCodePoints + " characters");
    }
    return value;
  }

  public static boolean isHex64(String value) {
    if (value == null || value.length() != 64) {
      return false;
    }
    for (int i = 0; i < 64; i++) { // a loop, not a regex: this runs several times per commit
      char c = value.charAt(i);
      if ((c < '0' || c > '9') && (c < 'a' || c > 'f')) {
        return false;
      }
    }
    return true;
  }

  /** Returns {@code value} if it is 64 lowercase hex characters (a SHA-256 or HMAC). */
  public static String requireHex64(String field, String value) {
    if (!isHex64(value)) {
      throw RatchetException.contract(field + ": must be 64 lowercase hex characters");
    }
    return value;
  }
}
