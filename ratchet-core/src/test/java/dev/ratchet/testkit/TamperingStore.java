package dev.ratchet.testkit;

import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.InboxItem;
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
public final class TamperingStore implements CheckpointStore {
  private final CheckpointStore delegate;
  private volatile UnaryOperator<Optional<StoredRun>> onLoad = UnaryOperator.identity();

  public TamperingStore(CheckpointStore delegate) {
    this.delegate = delegate;
  }

  private volatile UnaryOperator<List<StoredRecord>> onRecords = UnaryOperator.identity();

  public void onLoad(UnaryOperator<Optional<StoredRun>> edit) {
    this.onLoad = edit;
  }

  /** Edits what range reads of the record sets return (deletions, reorders, edits). */
  public void onRecords(UnaryOperator<List<StoredRecord>> edit) {
    this.onRecords = edit;
  }

  @Override
  public CommitResult commit(CommitRequest request) {
    return delegate.commit(request);
  }

  @Override
  public Optional<StoredRun> load(String taskId, String runId) {
    return onLoad.apply(delegate.load(taskId, runId));
  }

  @Override
  public Optional<StoredRecord> find(String taskId, String runId, RecordSet set, String key) {
    return delegate.find(taskId, runId, set, key);
  }

  @Override
  public List<StoredRecord> records(
      String taskId, String runId, RecordSet set, long fromSequence, int limit) {
    return onRecords.apply(delegate.records(taskId, runId, set, fromSequence, limit));
  }

  @Override
  public List<RunRef> runs() {
    return delegate.runs();
  }

  @Override
  public void deliver(String taskId, String runId, InboxItem item) {
    delegate.deliver(taskId, runId, item);
  }

  @Override
  public List<InboxItem> inbox(String taskId, String runId) {
    return delegate.inbox(taskId, runId);
  }
}
