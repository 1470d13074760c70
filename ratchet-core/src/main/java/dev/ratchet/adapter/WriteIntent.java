package dev.ratchet.adapter;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.Text;
import java.util.Objects;

/**
 * The normalised write intent. Its digest (SPEC D2) is SHA-256 of canonical {@code {namespace,
 * kind, arguments, risk}} and excludes action id, key, revision, preconditions, deadlines and run
 * identity, which are bound separately.
 */
public record WriteIntent(String namespace, String kind, JsonObject arguments, String risk) {
  public WriteIntent {
    Text.require("namespace", namespace);
    Text.require("kind", kind);
    Objects.requireNonNull(arguments, "arguments");
    Text.require("risk", risk);
  }

  public JsonObject toJson() {
    return JsonObject.builder()
        .put("namespace", namespace)
        .put("kind", kind)
        .put("arguments", arguments)
        .put("risk", risk)
        .build();
  }

  public String digest() {
    return Canonical.sha256Hex(toJson());
  }
}
