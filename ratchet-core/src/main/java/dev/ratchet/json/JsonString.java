package dev.ratchet.json;

import java.util.Objects;

/** A JSON string. Any Java string is representable; lone surrogates are refused by the parser. */
public record JsonString(String value) implements JsonValue {
  public JsonString {
    Objects.requireNonNull(value, "value");
  }

  @Override
  public String typeName() {
    return "string";
  }

  /** The canonical JSON text. */
  @Override
  public String toString() {
    return Canonical.string(this);
  }
}
