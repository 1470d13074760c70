package dev.ratchet.json;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * An immutable JSON object. Member order is kept as given (for readable output) but never matters:
 * equality and hashing follow the canonical form, which sorts keys.
 */
public final class JsonObject implements JsonValue {
  public static final JsonObject EMPTY = new JsonObject(Map.of());

  private final Map<String, JsonValue> members;

  private JsonObject(Map<String, JsonValue> members) {
    this.members = members;
  }

  /** Copies the map; rejects null keys or values. */
  public static JsonObject of(Map<String, ? extends JsonValue> members) {
    LinkedHashMap<String, JsonValue> copy = sized(members.size());
    members.forEach(
        (k, v) -> {
          requireMember(k, v);
          copy.put(k, v);
        });
    return new JsonObject(Collections.unmodifiableMap(copy));
  }

  /** A map that holds {@code n} members without rehashing. */
  private static LinkedHashMap<String, JsonValue> sized(int n) {
    return new LinkedHashMap<>(Math.max(16, (int) (n / 0.75f) + 1));
  }

  private static void requireMember(String key, JsonValue value) {
    if (key == null || value == null) {
      throw new IllegalArgumentException("null key or value in JSON object");
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  public Map<String, JsonValue> members() {
    return members;
  }

  public Optional<JsonValue> get(String key) {
    return Optional.ofNullable(members.get(key));
  }

  public boolean has(String key) {
    return members.containsKey(key);
  }

  public int size() {
    return members.size();
  }

  /** A copy with one member added or replaced. */
  public JsonObject with(String key, JsonValue value) {
    requireMember(key, value); // the members held are checked already: copy them once
    LinkedHashMap<String, JsonValue> copy = sized(members.size() + 1);
    copy.putAll(members);
    copy.put(key, value);
    return new JsonObject(Collections.unmodifiableMap(copy));
  }

  /** A copy without one member; this object itself when it has no such member (immutable). */
  public JsonObject without(String key) {
    if (!members.containsKey(key)) {
      return this;
    }
    LinkedHashMap<String, JsonValue> copy = sized(members.size());
    copy.putAll(members);
    copy.remove(key);
    return new JsonObject(Collections.unmodifiableMap(copy));
  }

  @Override
  public String typeName() {
    return "object";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof JsonObject other && members.equals(other.members);
  }

  @Override
  public int hashCode() {
    return members.hashCode();
  }

  @Override
  public String toString() {
    return Canonical.string(this);
  }

  /** Collects members in insertion order. */
  public static final class Builder {
    private LinkedHashMap<String, JsonValue> members = new LinkedHashMap<>();
    // build() hands its map to the object instead of copying it (most objects of a write step are
    // built once); a put after that copies first, so a built object never changes.
    private boolean built;

    public Builder put(String key, JsonValue value) {
      if (built) {
        members = new LinkedHashMap<>(members);
        built = false;
      }
      members.put(key, value);
      return this;
    }

    public Builder put(String key, String value) {
      return put(key, value == null ? JsonNull.INSTANCE : new JsonString(value));
    }

    public Builder put(String key, long value) {
      return put(key, new JsonInt(value));
    }

    public Builder put(String key, boolean value) {
      return put(key, JsonBool.of(value));
    }

    public JsonObject build() {
      members.forEach(JsonObject::requireMember);
      built = true;
      return new JsonObject(Collections.unmodifiableMap(members));
    }
  }
}
