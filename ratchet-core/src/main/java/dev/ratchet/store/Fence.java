package dev.ratchet.store;

import dev.ratchet.json.Text;

/**
 * The fencing token of a lease (SPEC D8): every checkpoint commit and every adapter call carries
 * it. A store refuses a commit whose owner or lease version is not the current, unexpired lease; an
 * adapter refuses a token whose {@code leaseVersion} is older than the newest it has seen for the
 * run. A PostgreSQL store raises every version it grants to the floor of its cluster's timeline
 * (ADR 0121), so a fence granted after a promotion is newer than any the old primary granted.
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
