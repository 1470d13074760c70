package dev.ratchet.store;

import java.util.List;
import java.util.Optional;

/**
 * Base of store decorators (telemetry, fault injection and clock pinning in tests, counting in the
 * bench): forwards every call to {@code delegate}, closing included; a subclass overrides what it
 * changes.
 */
public abstract class ForwardingCheckpointStore implements CheckpointStore {
  protected final CheckpointStore delegate;

  protected ForwardingCheckpointStore(CheckpointStore delegate) {
    this.delegate = delegate;
  }

  @Override
  public CommitResult commit(CommitRequest request) {
    return delegate.commit(request);
  }

  @Override
  public Optional<StoredRun> load(String taskId, String runId) {
    return delegate.load(taskId, runId);
  }

  @Override
  public Optional<CheckpointEnvelope> retained(String taskId, String runId, long generation) {
    return delegate.retained(taskId, runId, generation);
  }

  @Override
  public Optional<StoredRecord> find(String taskId, String runId, RecordSet set, String key) {
    return delegate.find(taskId, runId, set, key);
  }

  @Override
  public List<StoredRecord> records(
      String taskId, String runId, RecordSet set, long fromSequence, int limit) {
    return delegate.records(taskId, runId, set, fromSequence, limit);
  }

  @Override
  public List<RunRef> runs() {
    return delegate.runs();
  }

  @Override
  public List<RunRef> runs(String runId) {
    return delegate.runs(runId);
  }

  @Override
  public void deliver(String taskId, String runId, InboxItem item) {
    delegate.deliver(taskId, runId, item);
  }

  @Override
  public List<InboxItem> inbox(String taskId, String runId) {
    return delegate.inbox(taskId, runId);
  }

  @Override
  public void close() {
    delegate.close();
  }
}
