package dev.ratchet.bench;

import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.Lease;
import dev.ratchet.store.RecordChain;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.RunScope;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The store alone, with no runtime above it: commits shaped like the runtime's (a checkpoint of the
 * measured size and the measured number of chained records of the measured size), made directly
 * through {@link JdbcStore#commit}. Between the raw baseline and the runtime, it shows how much of
 * the cost is the store's extra rows and how much is the runtime's work around each commit.
 */
final class StoreOnly {
  private final JdbcStore store;
  private final RunScope scope;
  private final String checkpoint;
  private final String recordBody;
  private final int recordsPerCommit;
  private final Lease lease;
  private SetHead head = SetHead.EMPTY;
  private long generation;
  private long sequence;

  StoreOnly(JdbcStore store, String runId, int checkpointBytes, int recordsPerCommit, int bytes) {
    this.store = store;
    this.scope = new RunScope("bench-store-only", runId, "ws-" + runId);
    this.checkpoint = "c".repeat(checkpointBytes);
    this.recordBody = "r".repeat(Math.max(1, bytes));
    this.recordsPerCommit = recordsPerCommit;
    this.lease = store.acquire(runId, "bench-worker", Duration.ofDays(1)).orElseThrow();
  }

  void commitOne() {
    List<StoredRecord> records = new ArrayList<>(recordsPerCommit);
    SetHead h = head;
    for (int i = 0; i < recordsPerCommit; i++) {
      StoredRecord r = RecordChain.append(h, RecordSet.TRACE, "e" + (sequence + i + 1), recordBody);
      records.add(r);
      h = RecordChain.advance(h, r);
    }
    CommitResult result =
        store.commit(new CommitRequest(scope, generation, lease, checkpoint, records));
    if (result.kind() != CommitResult.Kind.COMMITTED) {
      throw new IllegalStateException("store-only commit refused: " + result);
    }
    generation++;
    sequence += recordsPerCommit;
    head = h;
  }
}
