package dev.ratchet.internal;

import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.model.TraceOutcome;
import dev.ratchet.sign.SecretRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Evidence an adapter hands back (a command's output, a file read) is scanned for every secret the
 * process holds before the runtime keeps or returns it (SPEC D27): every string inside is redacted
 * by the run's {@link SecretRegistry}, and a {@code redacted} trace event, committed with the
 * evidence and placed just before it, records which fields held how many matches of which key ids
 * (never the bytes).
 */
final class Redaction {
  private Redaction() {}

  /** {@code value} with secrets replaced; traces {@code redacted} when anything was. */
  static JsonObject apply(
      Engine.Op op,
      SecretRegistry secrets,
      String actionId,
      String kind,
      String field,
      JsonObject value) {
    if (secrets.isEmpty()) {
      return value;
    }
    List<JsonValue> found = new ArrayList<>();
    JsonObject out = (JsonObject) walk(secrets, field, value, found);
    if (!found.isEmpty()) {
      op.trace(
          actionId,
          kind,
          TraceOutcome.REDACTED,
          JsonObject.builder().put("fields", new JsonArray(found)).build());
    }
    return out;
  }

  private static JsonValue walk(
      SecretRegistry secrets, String path, JsonValue v, List<JsonValue> found) {
    if (v instanceof JsonString s) {
      SecretRegistry.Redacted r = secrets.redact(s.value());
      if (r.matches().isEmpty()) {
        return v;
      }
      List<JsonValue> ids = new ArrayList<>();
      new TreeSet<>(r.matches().keySet()).forEach(id -> ids.add(new JsonString(id)));
      found.add(
          JsonObject.builder()
              .put("field", path)
              .put("matches", r.total())
              .put("key_ids", new JsonArray(ids))
              .build());
      return new JsonString(r.text());
    }
    if (v instanceof JsonObject o) {
      Map<String, JsonValue> members = new LinkedHashMap<>();
      o.members().forEach((k, m) -> members.put(k, walk(secrets, path + "." + k, m, found)));
      return JsonObject.of(members);
    }
    if (v instanceof JsonArray a) {
      List<JsonValue> items = new ArrayList<>();
      for (int i = 0; i < a.size(); i++) {
        items.add(walk(secrets, path + "[" + i + "]", a.get(i), found));
      }
      return new JsonArray(items);
    }
    return v;
  }
}
