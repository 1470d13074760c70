package dev.ratchet.store;

import java.util.List;
import java.util.Objects;

/**
 * One atomic commit (SPEC D7): the new signed checkpoint, and the records appended to the growing
 * sets with it. Content, mark and records are written all together or not at all.
 *
 * @param expectedGeneration the generation the writer loaded (0 to create the run)
 * @param checkpoint the signed checkpoint envelope as canonical JSON text
 * @param fence the writer's lease (run, owner, version)
 * @param token the lease's secret (D21); a wrong one is refused as {@code Fenced}
 * @param records records appended by this commit, each continuing its set's chain
 */
public record CommitRequest(
    RunScope scope,
    long expectedGeneration,
    Fence fence,
    LeaseToken token,
    String checkpoint,
    List<StoredRecord> records) {
  public CommitRequest {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(fence, "fence");
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(checkpoint, "checkpoint");
    records = List.copyOf(records);
    if (expectedGeneration < 0) {
      throw new IllegalArgumentException("expectedGeneration must be >= 0");
    }
    if (!fence.runId().equals(scope.runId())) {
      throw new IllegalArgumentException("fence is for another run");
    }
  }

  /** The checkpoint text as the envelope value type. */
  public CheckpointEnvelope envelope() {
    return new CheckpointEnvelope(checkpoint);
  }

  /** A commit under a held lease: its fence and its token. */
  public CommitRequest(
      RunScope scope,
      long expectedGeneration,
      Lease lease,
      String checkpoint,
      List<StoredRecord> records) {
    this(scope, expectedGeneration, lease.fence(), lease.requireToken(), checkpoint, records);
  }

  /** The generation this commit creates when it wins. */
  public long nextGeneration() {
    return expectedGeneration + 1;
  }
}
