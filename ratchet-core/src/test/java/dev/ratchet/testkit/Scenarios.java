package dev.ratchet.testkit;

import dev.ratchet.json.JsonObject;

/** Argument builders for the workspace kinds. */
final class Scenarios {
  private Scenarios() {}

  static JsonObject write(String path, String content) {
    return JsonObject.builder().put("path", path).put("content", content).build();
  }

  static JsonObject read(String path) {
    return JsonObject.builder().put("path", path).build();
  }

  static JsonObject tests() {
    return JsonObject.builder().put("target", "unit").build();
  }

  static JsonObject cancel(String reason) {
    return JsonObject.builder().put("reason", reason).build();
  }
}
