package dev.ratchet.store;

import dev.ratchet.json.Text;

/**
 * The fencing token of a lease (SPEC D8): every checkpoint commit and every adapter call carries
 * it. A store refuses a commit whose owner or lease version is not the current, unexpired lease; an
 * adapter refuses a token whose {@code leaseVersion} is older than the newest it has seen for the
 * run.
 */
public record Fence(String runId, String owner, long leaseVersion) {
  public Fence {
    Text.require("run_id", runId);
    Text.require("owner", owner);
    if (leaseVersion < 1) {
      throw new IllegalArgumentException("lease_version must be >= 1");
    }
  }
}
