package dev.ratchet.store;

import dev.ratchet.json.Text;
import java.time.Instant;
import java.util.Objects;

/**
 * Ownership of a run (SPEC §5, D8); {@link #fence()} is what every commit and adapter call carries.
 */
public record Lease(String runId, String owner, long version, Instant expiresAt) {
  public Lease {
    Text.require("run_id", runId);
    Text.require("owner", owner);
    Objects.requireNonNull(expiresAt, "expiresAt");
    if (version < 1) {
      throw new IllegalArgumentException("lease version must be >= 1");
    }
  }

  public Fence fence() {
    return new Fence(runId, owner, version);
  }
}
