package dev.ratchet.adapter;

import dev.ratchet.json.JsonObject;
import java.util.Objects;

/**
 * Verifier evidence: whether the environment met the task's expectations, bound to the revision and
 * state fingerprint it was checked on.
 */
public record Verification(
    boolean passed, long revision, String stateFingerprint, JsonObject detail) {
  public Verification {
    Objects.requireNonNull(stateFingerprint, "stateFingerprint");
    Objects.requireNonNull(detail, "detail");
  }
}
