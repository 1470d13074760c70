package dev.ratchet.adapter;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.json.Text;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The shape of an action kind's arguments, as a value: every property with its type, whether it may
 * be null, and the string lengths, pattern, enumeration or integer range the adapter's rules
 * enforce. {@link #toJson()} renders it as a JSON Schema object (for LangChain4j tool parameters
 * and MCP {@code inputSchema}); {@link #validate} enforces the same rules, so a schema cannot
 * promise more than the runtime accepts. Every property is required (the adapters' rules are {@link
 * Fields#exact}); an optional one is {@code nullable}.
 */
public record ArgumentSchema(List<Property> properties) {
  /** One argument. Absent constraints are null. */
  public record Property(
      String name,
      Type type,
      boolean nullable,
      String description,
      Integer minLength,
      Integer maxLength,
      String pattern,
      List<String> enumeration,
      Long minimum,
      Long maximum) {
    public Property {
      Text.require("property name", name);
      Objects.requireNonNull(type, "type");
      enumeration = enumeration == null ? null : List.copyOf(enumeration);
      if (pattern != null) {
        Pattern.compile(pattern);
      }
    }
  }

  /** The JSON Schema types the adapters' rules use. */
  public enum Type {
    STRING("string"),
    INTEGER("integer"),
    BOOLEAN("boolean");

    private final String json;

    Type(String json) {
      this.json = json;
    }

    public String json() {
      return json;
    }
  }

  /** Text as {@link Text#require}: at least one non-whitespace character. */
  public static final String NOT_BLANK = ".*\\S.*";

  /** Sixty-four lowercase hex characters (a SHA-256). */
  public static final String HEX64 = "^[0-9a-f]{64}$";

  public static final ArgumentSchema EMPTY = new ArgumentSchema(List.of());

  public ArgumentSchema {
    properties = List.copyOf(properties);
    Set<String> seen = new HashSet<>();
    for (Property p : properties) {
      if (!seen.add(p.name())) {
        throw RatchetException.contract("argument schema: property '" + p.name() + "' twice");
      }
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The property names, in declaration order. */
  public List<String> names() {
    return properties.stream().map(Property::name).toList();
  }

  /** A JSON Schema object: type object, properties, required, additionalProperties false. */
  public JsonObject toJson() {
    Map<String, JsonValue> props = new LinkedHashMap<>();
    List<JsonValue> required = new ArrayList<>();
    for (Property p : properties) {
      props.put(p.name(), propertyJson(p));
      required.add(new JsonString(p.name()));
    }
    return JsonObject.builder()
        .put("type", "object")
        .put("properties", JsonObject.of(props))
        .put("required", new JsonArray(required))
        .put("additionalProperties", false)
        .build();
  }

  private static JsonObject propertyJson(Property p) {
    JsonObject.Builder b = JsonObject.builder();
    b.put(
        "type",
        p.nullable()
            ? JsonArray.of(new JsonString(p.type().json()), new JsonString("null"))
            : new JsonString(p.type().json()));
    if (p.description() != null) {
      b.put("description", p.description());
    }
    if (p.minLength() != null) {
      b.put("minLength", p.minLength());
    }
    if (p.maxLength() != null) {
      b.put("maxLength", p.maxLength());
    }
    if (p.pattern() != null) {
      b.put("pattern", p.pattern());
    }
    if (p.enumeration() != null) {
      b.put(
          "enum", new JsonArray(p.enumeration().stream().<JsonValue>map(JsonString::new).toList()));
    }
    if (p.minimum() != null) {
      b.put("minimum", p.minimum());
    }
    if (p.maximum() != null) {
      b.put("maximum", p.maximum());
    }
    return b.build();
  }

  /** Throws {@code CONTRACT} naming the field and the rule the arguments break. */
  public void validate(JsonObject arguments, String path) {
    Fields f = Fields.exact(arguments, path, names().toArray(String[]::new));
    for (Property p : properties) {
      JsonValue v = f.raw(p.name());
      String at = f.path(p.name());
      if (v instanceof JsonNull) {
        if (!p.nullable()) {
          throw RatchetException.contract(at + ": must not be null");
        }
        continue;
      }
      switch (p.type()) {
        case STRING -> checkString(p, at, f.string(p.name()));
        case INTEGER -> checkInteger(p, at, f.integer(p.name(), Long.MIN_VALUE, Long.MAX_VALUE));
        case BOOLEAN -> f.bool(p.name());
      }
    }
  }

  private static void checkString(Property p, String at, String s) {
    int len = s.codePointCount(0, s.length());
    if (p.minLength() != null && len < p.minLength()) {
      throw RatchetException.contract(at + ": must be at least " + p.minLength() + " characters");
    }
    if (p.maxLength() != null && len > p.maxLength()) {
      throw RatchetException.contract(at + ": must be at most " + p.maxLength() + " characters");
    }
    if (p.pattern() != null && !Pattern.compile(p.pattern()).matcher(s).find()) {
      throw RatchetException.contract(at + ": must match " + p.pattern());
    }
    if (p.enumeration() != null && !p.enumeration().contains(s)) {
      throw RatchetException.contract(at + ": '" + s + "' is not one of " + p.enumeration());
    }
  }

  private static void checkInteger(Property p, String at, long v) {
    if ((p.minimum() != null && v < p.minimum()) || (p.maximum() != null && v > p.maximum())) {
      throw RatchetException.contract(
          at + ": must be an integer from " + p.minimum() + " to " + p.maximum());
    }
  }

  /** Collects properties in order. */
  public static final class Builder {
    private final List<Property> properties = new ArrayList<>();

    /** Text as {@link Fields#text(String, int)}: non-blank, at most {@code max} characters. */
    public Builder text(String name, int max, String description) {
      return add(
          new Property(name, Type.STRING, false, description, 1, max, NOT_BLANK, null, null, null));
    }

    /** Text matching {@code pattern} (a full match; anchors are added). */
    public Builder text(String name, int max, String pattern, String description) {
      return add(
          new Property(
              name,
              Type.STRING,
              false,
              description,
              1,
              max,
              "^(?:" + pattern + ")$",
              null,
              null,
              null));
    }

    /** Any string, as {@link Fields#string}. */
    public Builder string(String name, String description) {
      return add(
          new Property(name, Type.STRING, false, description, null, null, null, null, null, null));
    }

    /** A SHA-256 in lowercase hex, or null when {@code nullable}. */
    public Builder hex64(String name, boolean nullable, String description) {
      return add(
          new Property(name, Type.STRING, nullable, description, 64, 64, HEX64, null, null, null));
    }

    public Builder oneOf(String name, List<String> values, String description) {
      return add(
          new Property(
              name, Type.STRING, false, description, null, null, null, values, null, null));
    }

    public Builder integer(String name, long min, long max, String description) {
      return add(
          new Property(name, Type.INTEGER, false, description, null, null, null, null, min, max));
    }

    public Builder bool(String name, String description) {
      return add(
          new Property(name, Type.BOOLEAN, false, description, null, null, null, null, null, null));
    }

    public Builder add(Property p) {
      properties.add(p);
      return this;
    }

    public ArgumentSchema build() {
      return new ArgumentSchema(properties);
    }
  }
}
