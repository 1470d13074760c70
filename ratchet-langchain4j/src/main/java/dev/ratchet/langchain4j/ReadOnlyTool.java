package dev.ratchet.langchain4j;

import dev.ratchet.json.JsonObject;

/** A user tool without side effects: no key, no receipt; re-run freely after a crash. */
@FunctionalInterface
public interface ReadOnlyTool {
  JsonObject read(JsonObject arguments);
}
