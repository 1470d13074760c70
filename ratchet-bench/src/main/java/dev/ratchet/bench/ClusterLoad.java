package dev.ratchet.bench;

import dev.ratchet.schedule.Claim;
import dev.ratchet.schedule.SchedulingStore;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.RecordChain;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.RunScope;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link ClusterBench}'s clients: each loops as a worker slot does at the store — claim, {@code
 * steps} commits of a 2 KB checkpoint and three chained 200-byte records (a write step's trace,
 * action id and receipt), finish, release — and schedules one new run per run it ends, so the queue
 * never empties. Claim latency is timed per claim, whether or not it found a run.
 */
final class ClusterLoad {
  private static final Duration TTL = Duration.ofMinutes(1);
  private static final List<RecordSet> SETS =
      List.of(RecordSet.TRACE, RecordSet.ACTION_IDS, RecordSet.RECEIPTS);
  private static final String FILLER = "c".repeat(2_000);
  private static final String BODY = "r".repeat(200);

  /** What the clients did in the measured time. */
  record Totals(long runs, long commits, double seconds, List<Long> claimNanos) {
    double runsPerSecond() {
      return runs / seconds;
    }

    double commitsPerSecond() {
      return commits / seconds;
    }

    double claimP50Millis() {
      return percentile(0.50);
    }

    double claimP99Millis() {
      return percentile(0.99);
    }

    private double percentile(double p) {
      if (claimNanos.isEmpty()) {
        return 0;
      }
      List<Long> sorted = new ArrayList<>(claimNanos);
      Collections.sort(sorted);
      return sorted.get((int) Math.min(sorted.size() - 1, p * sorted.size())) / 1e6;
    }
  }

  private final CheckpointStore checkpoints;
  private final SchedulingStore scheduling;
  private final int threads;
  private final int steps;
  private final AtomicLong runs = new AtomicLong();
  private final AtomicLong commits = new AtomicLong();
  private final AtomicLong next = new AtomicLong();
  private final List<Long> claims = Collections.synchronizedList(new ArrayList<>());

  <S extends CheckpointStore & SchedulingStore> ClusterLoad(S store, int threads, int steps) {
    this.checkpoints = store;
    this.scheduling = store;
    this.threads = threads;
    this.steps = steps;
  }

  Totals run(Duration time) throws InterruptedException {
    for (int i = 0; i < 2 * threads; i++) {
      schedule();
    }
    long start = Stopwatch.nanos();
    long until = start + time.toNanos();
    List<Thread> ts = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      String owner = "bench-" + i;
      Thread t = new Thread(() -> loop(owner, until), owner);
      ts.add(t);
      t.start();
    }
    for (Thread t : ts) {
      t.join();
    }
    double seconds = (Stopwatch.nanos() - start) / 1e9;
    return new Totals(runs.get(), commits.get(), seconds, List.copyOf(claims));
  }

  private void schedule() {
    scheduling.schedule("bench", "r" + next.incrementAndGet(), "bench", "ref");
  }

  private void loop(String owner, long until) {
    while (Stopwatch.nanos() < until) {
      long sent = Stopwatch.nanos();
      var got = scheduling.claim(owner, TTL);
      claims.add(Stopwatch.nanos() - sent);
      if (got.isEmpty()) {
        continue;
      }
      Claim c = got.get();
      drive(c);
      scheduling.finish(c, c.lease());
      scheduling.release(c.lease());
      runs.incrementAndGet();
      schedule();
    }
  }

  private void drive(Claim c) {
    RunScope scope = new RunScope(c.taskId(), c.runId(), "env-" + c.runId());
    Map<RecordSet, SetHead> heads = new EnumMap<>(RecordSet.class);
    for (long g = 0; g < steps; g++) {
      List<StoredRecord> records = new ArrayList<>(SETS.size());
      for (RecordSet set : SETS) {
        SetHead h = heads.getOrDefault(set, SetHead.EMPTY);
        StoredRecord r = RecordChain.append(h, set, "e" + (h.count() + 1), BODY);
        records.add(r);
        heads.put(set, RecordChain.advance(h, r));
      }
      String checkpoint = String.format(Locale.ROOT, "%020d", g) + FILLER;
      CommitResult result =
          checkpoints.commit(new CommitRequest(scope, g, c.lease(), checkpoint, records));
      if (result.kind() != CommitResult.Kind.COMMITTED) {
        throw new IllegalStateException("bench commit refused: " + result);
      }
      commits.incrementAndGet();
    }
  }
}
