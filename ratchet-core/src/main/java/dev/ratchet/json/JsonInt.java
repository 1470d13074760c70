package dev.ratchet.json;

/**
 * An integer within the exactly representable IEEE-754 range ±(2^53−1) (SPEC D16). Every number in
 * Ratchet's own data is one of these; a literal such as {@code 1.0} or {@code 1e0} is a {@link
 * JsonDecimal} and is refused wherever an integer is expected.
 */
public record JsonInt(long value) implements JsonValue {
  public static final long MAX_SAFE = (1L << 53) - 1;

  public JsonInt {
    if (value > MAX_SAFE || value < -MAX_SAFE) {
      throw new IllegalArgumentException("integer outside ±(2^53-1): " + value);
    }
  }

  @Override
  public String typeName() {
    return "integer";
  }

  /** The canonical JSON text. */
  @Override
  public String toString() {
    return Canonical.string(this);
  }
}
