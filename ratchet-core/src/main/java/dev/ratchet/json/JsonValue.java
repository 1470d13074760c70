package dev.ratchet.json;

/**
 * An immutable JSON value. Equality is structural and typed, as the strict parser reads values: a
 * {@link JsonInt} never equals a {@link JsonDecimal}, and {@code JsonDecimal(0.0)} is not {@code
 * JsonDecimal(-0.0)}, although their canonical forms ({@link Canonical#bytes}) agree ({@code 1} and
 * {@code 1.0} both serialise as {@code 1}). Where the wire identity is what matters (digests,
 * signatures), compare canonical bytes, never {@code equals}.
 */
public sealed interface JsonValue
    permits JsonObject, JsonArray, JsonString, JsonInt, JsonDecimal, JsonBool, JsonNull {

  /** A short name of the JSON type, used in error messages ("object", "string", ...). */
  String typeName();
}
