package dev.ratchet.json;

/**
 * Any finite number that is not a {@link JsonInt}: a literal with a fraction or exponent, or an
 * integer beyond ±(2^53−1). Kept only so that arbitrary documents canonicalise per RFC 8785;
 * Ratchet's own data never accepts one.
 */
public record JsonDecimal(double value) implements JsonValue {
  public JsonDecimal {
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException("non-finite number");
    }
  }

  @Override
  public String typeName() {
    return "number";
  }

  /** The canonical JSON text. */
  @Override
  public String toString() {
    return Canonical.string(this);
  }
}
