package dev.ratchet.json;

/**
 * An immutable JSON value. The canonical bytes of a value ({@link Canonical#bytes}) are its
 * identity: two values are equal exactly when their canonical forms are equal.
 */
public sealed interface JsonValue
    permits JsonObject, JsonArray, JsonString, JsonInt, JsonDecimal, JsonBool, JsonNull {

  /** A short name of the JSON type, used in error messages ("object", "string", ...). */
  String typeName();
}
