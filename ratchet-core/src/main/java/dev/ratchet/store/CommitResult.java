package dev.ratchet.store;

/**
 * The expected outcomes of {@link CheckpointStore#commit}: returned, never thrown, because a worker
 * must branch on them.
 */
public sealed interface CommitResult {
  enum Kind {
    COMMITTED,
    LOST_RACE,
    FENCED
  }

  Kind kind();

  /** The commit is durable and the mark now equals {@code generation}. */
  record Committed(long generation) implements CommitResult {
    @Override
    public Kind kind() {
      return Kind.COMMITTED;
    }
  }

  /** Another writer advanced the mark first; nothing was written. */
  record LostRace(long currentGeneration) implements CommitResult {
    @Override
    public Kind kind() {
      return Kind.LOST_RACE;
    }
  }

  /**
   * The fence is not the current unexpired lease, or the scope's instance differs; nothing written.
   */
  record Fenced(String reason) implements CommitResult {
    @Override
    public Kind kind() {
      return Kind.FENCED;
    }
  }
}
