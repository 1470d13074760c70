package dev.ratchet.model;

import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.json.Text;

/**
 * The last passing verifier evidence: the environment revision and state it belongs to, and the
 * trace event that records it. Completion requires it to match the live environment.
 */
public record VerifiedEvidence(long revision, String stateFingerprint, long traceSequence) {
  public VerifiedEvidence {
    Text.requireHex64("verified.state_fingerprint", stateFingerprint);
    if (traceSequence < 1) {
      throw dev.ratchet.error.RatchetException.contract("verified.trace_sequence: must be >= 1");
    }
  }

  public JsonObject toJson() {
    return JsonObject.builder()
        .put("revision", revision)
        .put("state_fingerprint", stateFingerprint)
        .put("trace_sequence", traceSequence)
        .build();
  }

  public static VerifiedEvidence fromJson(JsonValue v, String path) {
    Fields f = Fields.exact(v, path, "revision", "state_fingerprint", "trace_sequence");
    return new VerifiedEvidence(
        f.integer("revision", 0, JsonInt.MAX_SAFE),
        f.hex64("state_fingerprint"),
        f.integer("trace_sequence", 1, JsonInt.MAX_SAFE));
  }
}
