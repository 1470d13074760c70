package dev.ratchet.chaos;

import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonBool;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Seeded edits of text and JSON trees that always change something, for the tamper catalogue. */
final class JsonEdits {
  private final Random rnd;

  JsonEdits(Random rnd) {
    this.rnd = rnd;
  }

  /** One bit of the UTF-8 bytes flipped (retried until the decoded text differs). */
  String bitFlip(String text) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    for (int attempt = 0; attempt < 8; attempt++) {
      byte[] m = b.clone();
      int pos = rnd.nextInt(m.length);
      m[pos] = (byte) (m[pos] ^ (1 << rnd.nextInt(8)));
      String out = new String(m, StandardCharsets.UTF_8);
      if (!out.equals(text)) {
        return out;
      }
    }
    throw new Mutations.NotApplicable("no bit flip changed the text");
  }

  /** A leaf of the JSON tree changed to a different value of the same or another type. */
  JsonValue editLeaf(JsonValue root) {
    List<List<Object>> leaves = new ArrayList<>();
    collect(root, new ArrayList<>(), leaves);
    if (leaves.isEmpty()) {
      throw new Mutations.NotApplicable("no leaf");
    }
    List<Object> path = leaves.get(rnd.nextInt(leaves.size()));
    return replace(root, path, 0);
  }

  private static void collect(JsonValue v, List<Object> path, List<List<Object>> out) {
    if (v instanceof JsonObject o) {
      for (var e : o.members().entrySet()) {
        path.add(e.getKey());
        collect(e.getValue(), path, out);
        path.remove(path.size() - 1);
      }
    } else if (v instanceof JsonArray a) {
      for (int i = 0; i < a.size(); i++) {
        path.add(i);
        collect(a.get(i), path, out);
        path.remove(path.size() - 1);
      }
    } else {
      out.add(List.copyOf(path));
    }
  }

  private JsonValue replace(JsonValue v, List<Object> path, int depth) {
    if (depth == path.size()) {
      return changed(v);
    }
    Object step = path.get(depth);
    if (v instanceof JsonObject o) {
      String k = (String) step;
      return o.with(k, replace(o.get(k).orElseThrow(), path, depth + 1));
    }
    JsonArray a = (JsonArray) v;
    List<JsonValue> items = new ArrayList<>(a.items());
    int i = (Integer) step;
    items.set(i, replace(items.get(i), path, depth + 1));
    return new JsonArray(items);
  }

  private JsonValue changed(JsonValue v) {
    if (v instanceof JsonInt i) {
      long d = 1 + rnd.nextInt(5);
      return new JsonInt(i.value() + (i.value() + d <= JsonInt.MAX_SAFE ? d : -d));
    }
    if (v instanceof JsonString s) {
      return new JsonString(s.value().isEmpty() ? "x" : s.value() + (char) ('a' + rnd.nextInt(26)));
    }
    if (v instanceof JsonBool b) {
      return JsonBool.of(!b.value());
    }
    if (v instanceof JsonNull) {
      return new JsonString("tampered");
    }
    return JsonNull.INSTANCE;
  }
}
