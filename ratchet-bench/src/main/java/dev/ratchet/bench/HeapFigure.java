package dev.ratchet.bench;

import dev.ratchet.jdbc.Database;
import dev.ratchet.testkit.InMemoryWorkspace;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Figure 5: live heap of idle runs (started, lease held, at rest between steps), measured as used
 * heap after full collections, before and after the runs exist. The runs share one environment, so
 * what is counted is the runtime's own per-run state: engine, committed state, context, lease.
 * There is no raw baseline that drifts with load here; the ratio compares with the size of the
 * run's own signed checkpoint, the least a run's state can take as text.
 */
final class HeapFigure {
  private static final int STARTERS = 8;

  private final HarnessConfig cfg;
  private final Path file;
  private final Report report;
  private final Log log;

  HeapFigure(HarnessConfig cfg, Path file, Report report, Log log) {
    this.cfg = cfg;
    this.file = file;
    this.report = report;
    this.log = log;
  }

  void run() {
    try (BenchStore s = new BenchStore(Database.sqlite(file), true, cfg.contentChars())) {
      InMemoryWorkspace shared = s.workspace("heap");
      Driver[] runs = new Driver[cfg.heapRuns()];
      s.start("f5-warm", shared);
      long base = usedAfterGc();
      BenchStore.Counts before = s.counts();
      start(s, shared, runs, 0, cfg.heapSampleRuns());
      long afterSample = usedAfterGc();
      double checkpoint = s.counts().minus(before).meanCheckpointBytes();
      start(s, shared, runs, cfg.heapSampleRuns(), cfg.heapRuns());
      long afterAll = usedAfterGc();
      double perRun = (double) (afterSample - base) / cfg.heapSampleRuns();
      double total = afterAll - base;
      log.line(
          String.format(
              Locale.ROOT,
              "figure 5: %d runs %.1f KiB each; %d runs %.1f MiB",
              cfg.heapSampleRuns(),
              perRun / 1024,
              cfg.heapRuns(),
              total / (1 << 20)));
      report.add(
          new Row(
              "5",
              "heap per idle run (mean of " + cfg.heapSampleRuns() + ")",
              String.format(Locale.ROOT, "%.1f KiB", perRun / 1024),
              String.format(Locale.ROOT, "%.1f KiB (its signed checkpoint)", checkpoint / 1024),
              perRun / checkpoint,
              "—",
              "—",
              "memory: decoded state, engine, per-run context and action specs",
              true,
              ""));
      report.add(
          new Row(
              "5",
              String.format(Locale.ROOT, "heap for %,d idle runs", cfg.heapRuns()),
              String.format(Locale.ROOT, "%.1f MiB", total / (1 << 20)),
              String.format(
                  Locale.ROOT,
                  "%.1f MiB (%,d checkpoints)",
                  cfg.heapRuns() * checkpoint / (1 << 20),
                  cfg.heapRuns()),
              total / (cfg.heapRuns() * checkpoint),
              "—",
              "—",
              "memory: linear in runs, nothing shared grows",
              true,
              ""));
      // Keep every run reachable until the last measurement.
      log.line("figure 5: held " + countNonNull(runs) + " runs");
    }
  }

  private static void start(
      BenchStore s, InMemoryWorkspace shared, Driver[] into, int from, int to) {
    AtomicInteger next = new AtomicInteger(from);
    Timed.parallel(
        STARTERS,
        0,
        w -> {
          int i;
          while ((i = next.getAndIncrement()) < to) {
            into[i] = s.start("f5-" + i, shared);
          }
        });
  }

  private static int countNonNull(Object[] a) {
    int n = 0;
    for (Object o : a) {
      n += o == null ? 0 : 1;
    }
    return n;
  }

  /** Used heap after collections have stopped freeing anything. */
  static long usedAfterGc() {
    MemoryMXBean mx = ManagementFactory.getMemoryMXBean();
    long best = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      mx.gc();
      long used = mx.getHeapMemoryUsage().getUsed();
      best = Math.min(best, used);
    }
    return best;
  }
}
