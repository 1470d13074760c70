package dev.ratchet.adapter;

import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.json.Text;

/**
 * What an adapter reports about its environment (SPEC D9): which instance, its own revision counter
 * or etag, a digest of the observable state, and the identity it acts as. The checkpoint holds this
 * binding, never a copy of the environment.
 */
public record Observation(
    String instanceId, long revision, String stateFingerprint, String identity) {
  public Observation {
    Text.require("environment_instance_id", instanceId);
    if (revision < 0) {
      throw new IllegalArgumentException("revision must be >= 0");
    }
    Text.requireHex64("state_fingerprint", stateFingerprint);
    Text.require("identity", identity);
  }

  public JsonObject toJson() {
    return JsonObject.builder()
        .put("instance_id", instanceId)
        .put("revision", revision)
        .put("state_fingerprint", stateFingerprint)
        .put("identity", identity)
        .build();
  }

  public static Observation fromJson(JsonValue value, String path) {
    Fields f =
        Fields.exact(value, path, "instance_id", "revision", "state_fingerprint", "identity");
    return new Observation(
        f.text("instance_id"),
        f.integer("revision", 0, Long.MAX_VALUE),
        f.hex64("state_fingerprint"),
        f.text("identity"));
  }
}
