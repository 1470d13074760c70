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
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The store alone, with no runtime above it: commits shaped like the runtime's (a new checkpoint of
 * the measured size every generation, and the measured number of chained records of the measured
 * size spread over three sets, as a write step's trace, action id and receipt), made directly
 * through {@link JdbcStore#commit}. Between the raw baseline and the runtime, it shows how much of
 * the cost is the store's extra rows and how much is the runtime's work around each commit.
 */
final class StoreOnly {
  private final JdbcStore store;
  private final RunScope scope;
  private final String filler;
  private final String recordBody;
  private final int recordsPerCommit;
  private final Lease lease;
  private static final List<RecordSet> SETS =
      List.of(RecordSet.TRACE, RecordSet.ACTION_IDS, RecordSet.RECEIPTS);

  private final Map<RecordSet, SetHead> heads = new EnumMap<>(RecordSet.class);
  private long generation;

  StoreOnly(JdbcStore store, String runId, int checkpointBytes, int recordsPerCommit, int bytes) {
    this.store = store;
    this.scope = new RunScope("bench-store-only", runId, "ws-" + runId);
    this.filler = "c".repeat(Math.max(0, checkpointBytes - 20));
    this.recordBody = "r".repeat(Math.max(1, bytes));
    this.recordsPerCommit = recordsPerCommit;
    this.lease = store.acquire(runId, "bench-worker", Duration.ofDays(1)).orElseThrow();
  }

  void commitOne() {
    List<StoredRecord> records = new ArrayList<>(recordsPerCommit);
    Map<RecordSet, SetHead> next = new EnumMap<>(heads);
    for (int i = 0; i < recordsPerCommit; i++) {
      RecordSet set = SETS.get(i % SETS.size());
      SetHead h = next.getOrDefault(set, SetHead.EMPTY);
      StoredRecord r = RecordChain.append(h, set, "e" + (h.count() + 1), recordBody);
      records.add(r);
      next.put(set, RecordChain.advance(h, r));
    }
    // A new content row each commit, as the runtime's: its checkpoint differs every generation, so
    // the store inserts it and retention deletes the oldest one (a constant body would update one
    // row in place and flatter the store).
    String checkpoint = String.format(Locale.ROOT, "%020d", generation) + filler;
    CommitResult result =
        store.commit(new CommitRequest(scope, generation, lease, checkpoint, records));
    if (result.kind() != CommitResult.Kind.COMMITTED) {
      throw new IllegalStateException("store-only commit refused: " + result);
    }
    generation++;
    heads.putAll(next);
  }
}
