package dev.ratchet.json;

import dev.ratchet.error.RatchetException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The strict JSON parser (RFC 8259 grammar, SPEC D16 rules). It refuses duplicate keys, lone
 * surrogates, non-finite or over-long numbers, leading zeros, trailing data, and input beyond the
 * {@link JsonLimits}. Every refusal is a {@code CONTRACT} error naming the path and the rule.
 */
public final class Json {
  private Json() {}

  public static JsonValue parse(String text) {
    return parse(text, JsonLimits.DEFAULT);
  }

  public static JsonValue parse(String text, JsonLimits limits) {
    // Size is judged in UTF-8 bytes, the unit every store and file uses.
    long bytes = utf8Length(text, limits.maxBytes());
    if (bytes > limits.maxBytes()) {
      throw RatchetException.contract(
          "$: document exceeds " + limits.maxBytes() + " bytes (size limit)");
    }
    return new JsonParser(text, limits).document();
  }

  /** Parses UTF-8 bytes; malformed UTF-8 is refused. */
  public static JsonValue parse(byte[] utf8, JsonLimits limits) {
    if (utf8.length > limits.maxBytes()) {
      throw RatchetException.contract(
          "$: document exceeds " + limits.maxBytes() + " bytes (size limit)");
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(utf8))
              .toString();
    } catch (CharacterCodingException e) {
      throw RatchetException.contract("$: input is not valid UTF-8");
    }
    return new JsonParser(text, limits).document();
  }

  private static long utf8Length(String s, int stopAfter) {
    long n = 0;
    for (int i = 0; i < s.length() && n <= stopAfter; i++) {
      char c = s.charAt(i);
      n += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
    }
    return n;
  }
}
