package dev.ratchet.mcp.internal;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import java.io.IOException;
import java.util.Map;

/**
 * Moves JSON between the SDK's maps and Ratchet's canonical JSON through text: the runtime parses
 * (and bounds) what a client sent exactly as it parses any other input.
 */
public final class JsonBridge {
  private static final TypeRef<Map<String, Object>> MAP = new TypeRef<>() {};
  private final McpJsonMapper mapper;

  public JsonBridge(McpJsonMapper mapper) {
    this.mapper = mapper;
  }

  /** A client's arguments as a Ratchet object; {@code CONTRACT} naming {@code path} if not one. */
  public JsonObject toRatchet(Object value, String path) {
    if (value == null) {
      return JsonObject.EMPTY;
    }
    String text;
    try {
      text = mapper.writeValueAsString(value);
    } catch (IOException e) {
      throw RatchetException.contract(path + ": is not JSON");
    }
    JsonValue v = Json.parse(text);
    if (!(v instanceof JsonObject o)) {
      throw RatchetException.contract(path + ": must be an object");
    }
    return o;
  }

  /** A Ratchet object as the map the SDK serialises. */
  public Map<String, Object> toMap(JsonObject value) {
    try {
      return mapper.readValue(Canonical.string(value), MAP);
    } catch (IOException e) {
      throw new IllegalStateException("canonical JSON did not parse", e);
    }
  }
}
