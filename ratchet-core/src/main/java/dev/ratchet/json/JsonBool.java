package dev.ratchet.json;

/** {@code true} or {@code false}. */
public enum JsonBool implements JsonValue {
  TRUE,
  FALSE;

  public static JsonBool of(boolean b) {
    return b ? TRUE : FALSE;
  }

  public boolean value() {
    return this == TRUE;
  }

  @Override
  public String typeName() {
    return "boolean";
  }

  /** The canonical JSON text. */
  @Override
  public String toString() {
    return Canonical.string(this);
  }
}
