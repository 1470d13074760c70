package dev.ratchet.json;

import java.util.List;

/** An immutable JSON array. */
public record JsonArray(List<JsonValue> items) implements JsonValue {
  public static final JsonArray EMPTY = new JsonArray(List.of());

  public JsonArray {
    items = List.copyOf(items);
  }

  public static JsonArray of(JsonValue... items) {
    return new JsonArray(List.of(items));
  }

  public int size() {
    return items.size();
  }

  public JsonValue get(int i) {
    return items.get(i);
  }

  @Override
  public String typeName() {
    return "array";
  }

  /** The canonical JSON text. */
  @Override
  public String toString() {
    return Canonical.string(this);
  }
}
