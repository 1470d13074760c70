package dev.ratchet.json;

import dev.ratchet.error.RatchetException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Strict reading of one JSON object into a record: the object must have exactly the declared keys,
 * and each accessor refuses wrong types and coercions ("1", 1.0 or true for 1). Every refusal is a
 * {@code CONTRACT} error whose message starts with the field's path.
 */
public final class Fields {
  private final JsonObject object;
  private final String path;

  private Fields(JsonObject object, String path) {
    this.object = object;
    this.path = path;
  }

  /** Requires {@code value} to be an object with exactly {@code keys}. */
  public static Fields exact(JsonValue value, String path, String... keys) {
    JsonObject obj = asObject(value, path);
    Set<String> declared = new LinkedHashSet<>(List.of(keys));
    Set<String> missing = new TreeSet<>(declared);
    missing.removeAll(obj.members().keySet());
    Set<String> unknown = new TreeSet<>(obj.members().keySet());
    unknown.removeAll(declared);
    if (missing.isEmpty() && unknown.isEmpty()) {
      return new Fields(obj, path);
    }
    // Both at once is usually one misspelling: name the field and the one it was meant to be.
    StringBuilder m = new StringBuilder(path).append(": ");
    if (!missing.isEmpty()) {
      m.append("missing fields ").append(missing);
    }
    if (!unknown.isEmpty()) {
      m.append(missing.isEmpty() ? "" : "; ").append("unknown fields ").append(unknown);
      for (String u : unknown) {
        String near = Spelling.closest(u, declared);
        if (near != null) {
          m.append(" ('").append(u).append("': did you mean '").append(near).append("'?)");
        }
      }
    }
    throw RatchetException.contract(m.toString());
  }

  public static JsonObject asObject(JsonValue value, String path) {
    if (value instanceof JsonObject o) {
      return o;
    }
    throw typeError(path, "an object", value);
  }

  public String path(String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  public JsonObject object() {
    return object;
  }

  public JsonValue raw(String key) {
    return object.members().get(key);
  }

  public boolean isNull(String key) {
    return raw(key) instanceof JsonNull;
  }

  public String string(String key) {
    if (raw(key) instanceof JsonString s) {
      return s.value();
    }
    throw typeError(path(key), "a string", raw(key));
  }

  /** Non-blank text of at most 200 code points. */
  public String text(String key) {
    return Text.require(path(key), string(key));
  }

  public String text(String key, int maxCodePoints) {
    return Text.require(path(key), string(key), maxCodePoints);
  }

  /** {@code null} or text. */
  public String optionalText(String key) {
    return isNull(key) ? null : text(key);
  }

  public String hex64(String key) {
    return Text.requireHex64(path(key), string(key));
  }

  public String optionalHex64(String key) {
    return isNull(key) ? null : hex64(key);
  }

  /** Text that must be one of {@code allowed}. */
  public String oneOf(String key, Set<String> allowed) {
    String v = text(key);
    if (!allowed.contains(v)) {
      throw RatchetException.contract(
          path(key) + ": '" + v + "' is not one of " + new TreeSet<>(allowed));
    }
    return v;
  }

  public long integer(String key, long min, long max) {
    if (raw(key) instanceof JsonInt i) {
      if (i.value() < min || i.value() > max) {
        throw RatchetException.contract(
            path(key) + ": must be an integer from " + min + " to " + max);
      }
      return i.value();
    }
    throw typeError(path(key), "an integer", raw(key));
  }

  public boolean bool(String key) {
    if (raw(key) instanceof JsonBool b) {
      return b.value();
    }
    throw typeError(path(key), "a boolean", raw(key));
  }

  public JsonObject obj(String key) {
    return asObject(raw(key), path(key));
  }

  public JsonArray array(String key) {
    if (raw(key) instanceof JsonArray a) {
      return a;
    }
    throw typeError(path(key), "an array", raw(key));
  }

  /** A list of distinct text items drawn from {@code allowed} (null = any text). */
  public List<String> uniqueTexts(String key, Set<String> allowed, boolean mayBeEmpty) {
    JsonArray a = array(key);
    if (!mayBeEmpty && a.size() == 0) {
      throw RatchetException.contract(path(key) + ": must not be empty");
    }
    List<String> out = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (int i = 0; i < a.size(); i++) {
      String p = path(key) + "[" + i + "]";
      if (!(a.get(i) instanceof JsonString s)) {
        throw typeError(p, "a string", a.get(i));
      }
      String v = Text.require(p, s.value());
      if (allowed != null && !allowed.contains(v)) {
        throw RatchetException.contract(
            p + ": '" + v + "' is not one of " + new TreeSet<>(allowed));
      }
      if (!seen.add(v)) {
        throw RatchetException.contract(p + ": duplicate item '" + v + "'");
      }
      out.add(v);
    }
    return List.copyOf(out);
  }

  private static RatchetException typeError(String path, String expected, JsonValue actual) {
    String got = actual == null ? "nothing" : actual.typeName();
    return RatchetException.contract(path + ": must be " + expected + ", got " + got);
  }
}
