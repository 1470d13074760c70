package dev.ratchet.testkit;

import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.ForwardingCheckpointStore;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import dev.ratchet.store.StoredRun;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A store decorator that shows recovery a tampered snapshot: whatever {@code load} returns passes
 * through a test-chosen edit (a flipped byte, an older checkpoint, a forged head). Writes go to the
 * real store unchanged.
 */
public final class TamperingStore extends ForwardingCheckpointStore {
  private volatile UnaryOperator<Optional<StoredRun>> onLoad = UnaryOperator.identity();
  private volatile UnaryOperator<List<StoredRecord>> onRecords = UnaryOperator.identity();

  public TamperingStore(CheckpointStore delegate) {
    super(delegate);
  }

  public void onLoad(UnaryOperator<Optional<StoredRun>> edit) {
    this.onLoad = edit;
  }

  /** Edits what range reads of the record sets return (deletions, reorders, edits). */
  public void onRecords(UnaryOperator<List<StoredRecord>> edit) {
    this.onRecords = edit;
  }

  @Override
  public Optional<StoredRun> load(String taskId, String runId) {
    return onLoad.apply(delegate.load(taskId, runId));
  }

  @Override
  public List<StoredRecord> records(
      String taskId, String runId, RecordSet set, long fromSequence, int limit) {
    return onRecords.apply(delegate.records(taskId, runId, set, fromSequence, limit));
  }

  /** The tampered view does not own the store it wraps. */
  @Override
  public void close() {}
}
