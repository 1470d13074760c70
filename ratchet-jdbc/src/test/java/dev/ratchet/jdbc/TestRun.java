package dev.ratchet.jdbc;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.Fence;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseStore;
import dev.ratchet.store.RecordChain;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.RunScope;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal writer of one run for store tests: each commit appends trace events and a checkpoint
 * that states its own generation and the trace count and head, as a signed checkpoint would.
 */
final class TestRun {
  static final String TASK = "task-1";
  static final String ENV = "env-1";

  final CheckpointStore store;
  final String runId;
  final Lease lease;
  final Fence fence;
  long generation;
  SetHead trace = SetHead.EMPTY;

  TestRun(CheckpointStore store, LeaseStore leases, String runId) {
    this.store = store;
    this.runId = runId;
    this.lease = leases.acquire(runId, "writer", Duration.ofHours(1)).orElseThrow();
    this.fence = lease.fence();
  }

  static String checkpoint(String runId, long generation, SetHead trace) {
    return Canonical.string(
        JsonObject.builder()
            .put("run_id", runId)
            .put("generation", generation)
            .put("trace_count", trace.count())
            .put("trace_head", trace.head())
            .put("padding", "x".repeat(200))
            .build());
  }

  List<StoredRecord> events(int n) {
    List<StoredRecord> out = new ArrayList<>();
    SetHead h = trace;
    for (int i = 0; i < n; i++) {
      long seq = h.count() + 1;
      String body = Canonical.string(JsonObject.builder().put("sequence", seq).build());
      StoredRecord r = RecordChain.append(h, RecordSet.TRACE, Long.toString(seq), body);
      out.add(r);
      h = RecordChain.advance(h, r);
    }
    return out;
  }

  RunScope scope() {
    return new RunScope(TASK, runId, ENV);
  }

  CommitRequest next(int events) {
    List<StoredRecord> records = events(events);
    SetHead after = trace;
    for (StoredRecord r : records) {
      after = RecordChain.advance(after, r);
    }
    return new CommitRequest(
        scope(), generation, lease, checkpoint(runId, generation + 1, after), records);
  }

  /** The next generation with {@code checkpoint} as its text and no records. */
  CommitRequest nextWithCheckpoint(String checkpoint) {
    return new CommitRequest(scope(), generation, lease, checkpoint, List.of());
  }

  /** Commits the next generation with {@code events} trace events; must win. */
  TestRun commit(int events) {
    return commitOn(store, next(events));
  }

  /**
   * Commits {@code r} (this run's next generation) through {@code s}, which may be another store
   * over the same data (reopened with other options); it must win.
   */
  TestRun commitOn(CheckpointStore s, CommitRequest r) {
    CommitResult result = s.commit(r);
    if (!result.equals(new CommitResult.Committed(generation + 1))) {
      throw new IllegalStateException("commit of " + runId + " refused: " + result);
    }
    accepted(r);
    return this;
  }

  void accepted(CommitRequest r) {
    generation = r.nextGeneration();
    for (StoredRecord rec : r.records()) {
      trace = RecordChain.advance(trace, rec);
    }
  }

  TestRun commits(int n, int eventsEach) {
    return commitsOn(store, n, eventsEach);
  }

  /**
   * {@code n} commits of {@code eventsEach} trace events through {@code s} (see {@link #commitOn}).
   */
  TestRun commitsOn(CheckpointStore s, int n, int eventsEach) {
    for (int i = 0; i < n; i++) {
      commitOn(s, next(eventsEach));
    }
    return this;
  }
}
