package dev.ratchet.bench;

import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import dev.ratchet.store.StoredRun;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the checkpoint commits the runtime asks for and the bytes of the checkpoints they carry,
 * then forwards everything unchanged. The store's own {@code stats()} counts the transactions that
 * carried them; together they give commits per write step and the mean batch.
 */
final class CountingStore implements CheckpointStore {
  private final CheckpointStore delegate;
  private final AtomicLong commits = new AtomicLong();
  private final AtomicLong checkpointBytes = new AtomicLong();
  private final AtomicLong records = new AtomicLong();
  private final AtomicLong recordBytes = new AtomicLong();

  CountingStore(CheckpointStore delegate) {
    this.delegate = delegate;
  }

  long commits() {
    return commits.get();
  }

  long checkpointBytes() {
    return checkpointBytes.get();
  }

  long records() {
    return records.get();
  }

  long recordBytes() {
    return recordBytes.get();
  }

  @Override
  public CommitResult commit(CommitRequest request) {
    CommitResult r = delegate.commit(request);
    commits.incrementAndGet();
    checkpointBytes.addAndGet(request.checkpoint().getBytes(StandardCharsets.UTF_8).length);
    records.addAndGet(request.records().size());
    for (StoredRecord rec : request.records()) {
      recordBytes.addAndGet(rec.body().getBytes(StandardCharsets.UTF_8).length);
    }
    return r;
  }

  @Override
  public Optional<StoredRun> load(String taskId, String runId) {
    return delegate.load(taskId, runId);
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
  public void deliver(String taskId, String runId, InboxItem item) {
    delegate.deliver(taskId, runId, item);
  }

  @Override
  public List<InboxItem> inbox(String taskId, String runId) {
    return delegate.inbox(taskId, runId);
  }
}
