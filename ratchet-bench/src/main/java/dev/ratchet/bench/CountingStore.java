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
import java.util.function.Supplier;

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
  private final AtomicLong reads = new AtomicLong();
  private final AtomicLong readNanos = new AtomicLong();
  private final AtomicLong commitNanos = new AtomicLong();

  private volatile String lastCheckpoint = "";

  CountingStore(CheckpointStore delegate) {
    this.delegate = delegate;
  }

  long commits() {
    return commits.get();
  }

  long checkpointBytes() {
    return checkpointBytes.get();
  }

  /** Read transactions asked of the store (load, find, records, inbox, runs). */
  long reads() {
    return reads.get();
  }

  /** Time spent inside read calls, summed over threads. */
  long readNanos() {
    return readNanos.get();
  }

  /** Time spent inside commit calls (until durable), summed over threads. */
  long commitNanos() {
    return commitNanos.get();
  }

  /** The text of the last checkpoint committed (a real one, for baselines that need its bytes). */
  String lastCheckpoint() {
    return lastCheckpoint;
  }

  long records() {
    return records.get();
  }

  long recordBytes() {
    return recordBytes.get();
  }

  @Override
  public CommitResult commit(CommitRequest request) {
    long t0 = Stopwatch.nanos();
    CommitResult r = delegate.commit(request);
    commitNanos.addAndGet(Stopwatch.nanos() - t0);
    commits.incrementAndGet();
    checkpointBytes.addAndGet(request.checkpoint().getBytes(StandardCharsets.UTF_8).length);
    lastCheckpoint = request.checkpoint();
    records.addAndGet(request.records().size());
    for (StoredRecord rec : request.records()) {
      recordBytes.addAndGet(rec.body().getBytes(StandardCharsets.UTF_8).length);
    }
    return r;
  }

  @Override
  public Optional<StoredRun> load(String taskId, String runId) {
    return read(() -> delegate.load(taskId, runId));
  }

  @Override
  public Optional<StoredRecord> find(String taskId, String runId, RecordSet set, String key) {
    return read(() -> delegate.find(taskId, runId, set, key));
  }

  @Override
  public List<StoredRecord> records(
      String taskId, String runId, RecordSet set, long fromSequence, int limit) {
    return read(() -> delegate.records(taskId, runId, set, fromSequence, limit));
  }

  @Override
  public List<RunRef> runs() {
    return read(delegate::runs);
  }

  @Override
  public List<RunRef> runs(String runId) {
    return read(() -> delegate.runs(runId));
  }

  @Override
  public void deliver(String taskId, String runId, InboxItem item) {
    delegate.deliver(taskId, runId, item);
  }

  @Override
  public List<InboxItem> inbox(String taskId, String runId) {
    return read(() -> delegate.inbox(taskId, runId));
  }

  private <T> T read(Supplier<T> call) {
    reads.incrementAndGet();
    long t0 = Stopwatch.nanos();
    try {
      return call.get();
    } finally {
      readNanos.addAndGet(Stopwatch.nanos() - t0);
    }
  }
}
