package dev.ratchet.harness.ledger;

import dev.ratchet.json.JsonObject;
import java.util.Map;
import java.util.Objects;

/** One HTTP answer of the reference service: status, JSON body, extra headers. */
record Reply(int status, JsonObject body, Map<String, String> headers) {
  public Reply {
    Objects.requireNonNull(body, "body");
    headers = Map.copyOf(headers);
  }

  public static Reply of(int status, JsonObject body) {
    return new Reply(status, body, Map.of());
  }

  /** A refusal: {@code {"error": code, "message": message}}. */
  public static Reply error(int status, String code, String message) {
    return of(status, JsonObject.builder().put("error", code).put("message", message).build());
  }
}
