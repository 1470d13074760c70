package dev.ratchet.store;

import java.util.List;
import java.util.Optional;

/**
 * Durable home of checkpoints, the high-water mark and the growing sets (SPEC §4, D6, D7).
 *
 * <p><b>Thread safety:</b> every method may be called from any thread; implementations serialise
 * what must be serialised. <b>Durability:</b> {@link #commit} returns only once the commit is
 * durable (or known not to have happened). <b>Atomicity:</b> the checkpoint content, the mark
 * advance and the appended records become visible together or not at all; a crash anywhere in
 * between leaves the previous generation loadable. <b>Failure:</b> an absent, unreachable or
 * uninitialised store throws {@code RatchetException} with code {@code STORE_UNAVAILABLE}; it is
 * never treated as "no checkpoint".
 */
public interface CheckpointStore extends AutoCloseable {

  /**
   * Compare-and-set: writes the checkpoint and records and advances the mark from {@code
   * expectedGeneration} to {@code expectedGeneration + 1}, if and only if the mark still equals
   * {@code expectedGeneration} (0 = the run does not exist yet), the fence is the current unexpired
   * lease of the run, and the mark's environment instance equals the scope's.
   */
  CommitResult commit(CommitRequest request);

  /** The current mark, checkpoint and set heads; empty when the run was never committed. */
  Optional<StoredRun> load(String taskId, String runId);

  /** One record of a set by key, looked up by index (never by scanning). */
  Optional<StoredRecord> find(String taskId, String runId, RecordSet set, String key);

  /** Records of a set in sequence order, starting at {@code fromSequence} (1-based). */
  List<StoredRecord> records(
      String taskId, String runId, RecordSet set, long fromSequence, int limit);

  /**
   * The checkpoint of {@code generation} if the store still retains it (a fork from an earlier
   * step, D37); empty when it is gone. By default only the current checkpoint is retained.
   */
  default Optional<CheckpointEnvelope> retained(String taskId, String runId, long generation) {
    return load(taskId, runId).filter(r -> r.generation() == generation).map(StoredRun::envelope);
  }

  /** Every run the store holds, as (task id, run id) scopes with their current generation. */
  List<RunRef> runs();

  /**
   * The runs with this id (one per task that uses it; usually one), looked up by key: what a caller
   * that names one run uses instead of listing every run the store holds.
   */
  List<RunRef> runs(String runId);

  /** Delivers an operator decision to the run's inbox; a nonce already delivered is refused. */
  void deliver(String taskId, String runId, InboxItem item);

  /** Undelivered-or-unconsumed inbox items of a run, in delivery order. */
  List<InboxItem> inbox(String taskId, String runId);

  @Override
  default void close() {}

  /** A run known to the store. */
  record RunRef(String taskId, String runId, long generation) {}
}
