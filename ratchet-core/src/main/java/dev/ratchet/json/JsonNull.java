package dev.ratchet.json;

/** The JSON literal {@code null}. */
public enum JsonNull implements JsonValue {
  INSTANCE;

  @Override
  public String typeName() {
    return "null";
  }

  /** The canonical JSON text. */
  @Override
  public String toString() {
    return Canonical.string(this);
  }
}
