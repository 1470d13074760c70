package dev.ratchet.bench;

import dev.ratchet.jdbc.Database;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Figures 1, 2 and 6 on SQLite: write steps and checkpoint commits per second of one run, then of
 * 1–64 concurrent runs with group commit, each against raw single-row commits of the same size on
 * the same file measured in the same rounds; and the commits, transactions and reads each write
 * step costs (counted, not assumed).
 */
final class SqliteThroughput {
  private final HarnessConfig cfg;
  private final Path file;
  private final Report report;
  private final Log log;

  SqliteThroughput(HarnessConfig cfg, Path file, Report report, Log log) {
    this.cfg = cfg;
    this.file = file;
    this.report = report;
    this.log = log;
  }

  /** Figure 1 (and 6): one run, no group commit. Returns the mean checkpoint size in bytes. */
  int oneRun() {
    try (BenchStore s = new BenchStore(Database.sqlite(file), false, cfg.contentChars());
        BenchStore memory = BenchStore.inMemory(cfg.contentChars());
        RawSqlite raw = RawSqlite.open(file)) {
      Driver d = s.start("f1-run");
      Driver m = memory.start("f1-memory");
      Timed.parallel(1, cfg.warmupMillis() / 3, w -> m.writeStep());
      BenchStore.Counts warm0 = s.counts();
      Timed.parallel(1, cfg.warmupMillis(), w -> d.writeStep());
      BenchStore.Counts warm = s.counts().minus(warm0);
      int size = (int) Math.round(warm.meanCheckpointBytes());
      int recordsPerCommit = warm.recordsPerCommit();
      int recordBytes = warm.meanRecordBytes();
      String body = "x".repeat(size);
      StoreOnly storeOnly =
          new StoreOnly(s.jdbc, "f1-store-only", size, recordsPerCommit, recordBytes);
      Timed.parallel(1, Math.max(1, cfg.warmupMillis() / 3), w -> raw.commitOne(body));
      Timed.parallel(1, Math.max(1, cfg.warmupMillis() / 3), w -> storeOnly.commitOne());
      log.line(
          "figure 1: checkpoint ≈ "
              + size
              + " bytes, "
              + recordsPerCommit
              + " records of ≈ "
              + recordBytes
              + " bytes per commit; "
              + cfg.rounds()
              + " rounds");

      List<Double> rawRates = new ArrayList<>();
      List<Double> storeRates = new ArrayList<>();
      List<Double> ratchetRates = new ArrayList<>();
      List<Double> stepRates = new ArrayList<>();
      List<Double> ratios = new ArrayList<>();
      List<Double> stepRatios = new ArrayList<>();
      List<Long> stepLatency = new ArrayList<>();
      List<Double> storeRatios = new ArrayList<>();
      List<Double> memoryCommitNanos = new ArrayList<>();
      BenchStore.Counts used = BenchStore.Counts.ZERO;
      long steps = 0;
      double ratchetSeconds = 0;
      long ratchetCommits = 0;
      for (int r = 0; r < cfg.rounds(); r++) {
        double rawRate = 0;
        double storeRate = 0;
        double ratchetRate = 0;
        double stepRate = 0;
        for (int k = 0; k < 4; k++) {
          int which = (k + r) % 4;
          if (which == 3) {
            BenchStore.Counts before = memory.counts();
            Timed t = Timed.parallel(1, cfg.roundMillis() / 2, w -> m.writeStep());
            memoryCommitNanos.add(t.seconds() * 1e9 / memory.counts().minus(before).commits());
          } else if (which == 0) {
            rawRate = Timed.parallel(1, cfg.roundMillis(), w -> raw.commitOne(body)).rate();
          } else if (which == 1) {
            storeRate = Timed.parallel(1, cfg.roundMillis(), w -> storeOnly.commitOne()).rate();
          } else {
            BenchStore.Counts before = s.counts();
            long steps0 = d.steps();
            Timed t = Timed.parallel(1, cfg.roundMillis(), w -> d.writeStep(), stepLatency);
            BenchStore.Counts delta = s.counts().minus(before);
            used = used.plus(delta);
            steps += d.steps() - steps0;
            long commits = delta.commits();
            ratchetRate = commits / t.seconds();
            stepRate = (d.steps() - steps0) / t.seconds();
            ratchetSeconds += t.seconds();
            ratchetCommits += commits;
          }
        }
        rawRates.add(rawRate);
        storeRates.add(storeRate);
        ratchetRates.add(ratchetRate);
        stepRates.add(stepRate);
        ratios.add(ratchetRate / rawRate);
        stepRatios.add(stepRate / rawRate);
        storeRatios.add(storeRate / rawRate);
        log.line(
            String.format(
                Locale.ROOT,
                "  round %d: raw %.0f/s, store alone %.0f/s, Ratchet %.0f commits/s, %.0f steps/s",
                r,
                rawRate,
                storeRate,
                ratchetRate,
                stepRate));
      }
      double stepRatio = Stats.median(stepRatios);
      double commitsPerStep = (double) used.commits() / steps;
      double readsPerStep = (double) used.reads() / steps;
      report.add(
          new Row(
              "1",
              "write steps/s, 1 run, SQLite (checkpoint ≈ " + size + " B)",
              String.format(Locale.ROOT, "%,.0f steps/s", Stats.median(stepRates)),
              perSecond(Stats.median(rawRates)) + " (raw single-row commits, same file)",
              stepRatio,
              Row.goalAndFloor(0.5, 0.3),
              Row.goalOrFloor(stepRatio, 0.5, 0.3),
              String.format(
                  Locale.ROOT,
                  "fsync: one WAL fsync per commit on both sides, %.2f commits and %.2f read"
                      + " transactions per step (counted); CPU: validate, sign, adapter",
                  commitsPerStep,
                  readsPerStep),
              true,
              "step latency " + Stats.p50p99(stepLatency)));
      double ratio = Stats.median(ratios);
      report.add(
          new Row(
              "1",
              "checkpoint commits/s, 1 run, SQLite (checkpoint ≈ " + size + " B)",
              perSecond(Stats.median(ratchetRates)),
              perSecond(Stats.median(rawRates)),
              ratio,
              "—",
              "—",
              "fsync: one WAL fsync per commit on both sides; Ratchet adds CPU (validate, sign,"
                  + " adapter) and its counted reads between its commits",
              true,
              String.format(
                  Locale.ROOT,
                  "%.0f write steps/s (%.2f checkpoint commits each, counted); %.2f ms per"
                      + " commit against %.2f ms raw. Per write step: %.2f ms inside the store's"
                      + " commit calls, %.2f ms in %.2f read transactions, %.2f ms elsewhere"
                      + " (runtime CPU, adapter, scheduling). Issue 9's target for this row"
                      + " (≥ 0.8× raw) is superseded by issue 16's per write step (row above)",
                  steps / ratchetSeconds,
                  commitsPerStep,
                  1e3 * ratchetSeconds / ratchetCommits,
                  1e3 / Stats.median(rawRates),
                  used.commitNanos() / 1e6 / steps,
                  used.readNanos() / 1e6 / steps,
                  (double) used.reads() / steps,
                  (ratchetSeconds * 1e9 - used.commitNanos() - used.readNanos()) / 1e6 / steps)));
      double storeRatio = Stats.median(storeRatios);
      report.add(
          new Row(
              "1",
              "the store alone: same commits made directly, no runtime ("
                  + recordsPerCommit
                  + " records of ≈ "
                  + recordBytes
                  + " B each)",
              perSecond(Stats.median(storeRates)),
              perSecond(Stats.median(rawRates)),
              storeRatio,
              "—",
              "—",
              "fsync: one per commit; the store writes mark, generation log, content, records"
                  + " and prunes in that one transaction",
              true,
              ""));
      double memoryNanos = Stats.median(memoryCommitNanos);
      double rawNanos = 1e9 / Stats.median(rawRates);
      report.add(
          new Row(
              "1",
              "the runtime alone: time per checkpoint commit on the in-memory store (no I/O)",
              TraceLength.ms(memoryNanos),
              TraceLength.ms(rawNanos) + " (1 raw commit)",
              memoryNanos / rawNanos,
              "—",
              "—",
              "CPU: gates, validation, canonical JSON, HMAC, adapter, in-memory copies",
              true,
              ""));
      StepCounts.report(report, steps, used);
      return size;
    }
  }

  /**
   * Figure 2 (and 6 with batching): N runs with group commit. Each round measures, in rotating
   * order, one raw writer, N raw writers, the N runs, and (for N > 1) one of those runs alone, so
   * the scaling from 1 to N runs is a side-by-side ratio too.
   */
  void concurrentRuns(int size) {
    String body = "x".repeat(size);
    try (BenchStore s = new BenchStore(Database.sqlite(file), true, cfg.contentChars())) {
      for (int n : cfg.concurrency()) {
        List<Driver> drivers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          drivers.add(s.start("f2-" + n + "-" + i));
        }
        List<RawSqlite> raws = new ArrayList<>();
        try {
          for (int i = 0; i < n; i++) {
            raws.add(RawSqlite.open(file));
          }
          Timed.parallel(n, Math.max(1, cfg.warmupMillis() / 3), w -> drivers.get(w).writeStep());
          concurrentRounds(s, n, drivers, raws, body);
        } finally {
          raws.forEach(RawSqlite::close);
        }
      }
    }
  }

  private void concurrentRounds(
      BenchStore s, int n, List<Driver> drivers, List<RawSqlite> raws, String body) {
    List<Double> rawN = new ArrayList<>();
    List<Double> ratchet = new ArrayList<>();
    List<Double> vsRawN = new ArrayList<>();
    List<Double> vsSingle = new ArrayList<>();
    List<Double> scaling = new ArrayList<>();
    List<Double> stepRates = new ArrayList<>();
    List<Double> stepsVsSingle = new ArrayList<>();
    List<Double> rawOne = new ArrayList<>();
    BenchStore.Counts used = BenchStore.Counts.ZERO;
    long steps = 0;
    int kinds = n == 1 ? 2 : 4;
    for (int r = 0; r < cfg.rounds(); r++) {
      double one = 0;
      double many = 0;
      double ours = 0;
      double alone = 0;
      double stepRate = 0;
      for (int k = 0; k < kinds; k++) {
        int which = (k + r) % kinds;
        if (which == 0) {
          one = Timed.parallel(1, cfg.roundMillis(), w -> raws.get(0).commitOne(body)).rate();
        } else if (which == 1) {
          BenchStore.Counts before = s.counts();
          long steps0 = steps(drivers);
          Timed t = Timed.parallel(n, cfg.roundMillis(), w -> drivers.get(w).writeStep());
          BenchStore.Counts delta = s.counts().minus(before);
          used = used.plus(delta);
          steps += steps(drivers) - steps0;
          ours = delta.commits() / t.seconds();
          stepRate = (steps(drivers) - steps0) / t.seconds();
        } else if (which == 2) {
          many = Timed.parallel(n, cfg.roundMillis(), w -> raws.get(w).commitOne(body)).rate();
        } else {
          BenchStore.Counts before = s.counts();
          Timed t = Timed.parallel(1, cfg.roundMillis(), w -> drivers.get(0).writeStep());
          alone = s.counts().minus(before).commits() / t.seconds();
        }
      }
      if (n == 1) {
        many = one;
        alone = ours;
      }
      rawN.add(many);
      ratchet.add(ours);
      vsRawN.add(ours / many);
      vsSingle.add(ours / one);
      scaling.add(ours / alone);
      stepRates.add(stepRate);
      stepsVsSingle.add(stepRate / one);
      rawOne.add(one);
      log.line(
          String.format(
              Locale.ROOT,
              "  %d runs, round %d: raw 1 writer %.0f/s, raw %d writers %.0f/s, Ratchet %.0f/s,"
                  + " Ratchet 1 run alone %.0f/s",
              n,
              r,
              one,
              n,
              many,
              ours,
              alone));
    }
    double ratio = Stats.median(vsRawN);
    report.add(
        new Row(
            "2",
            "checkpoint commits/s, " + n + (n == 1 ? " run" : " runs") + ", group commit",
            perSecond(Stats.median(ratchet)),
            perSecond(Stats.median(rawN)) + (n == 1 ? " (1 writer)" : " (" + n + " writers)"),
            ratio,
            "—",
            "—",
            n == 1
                ? "fsync per batch; one hand-off to the writer thread per commit"
                : "fsync per batch; one writer lock; " + n + " threads on 2 cores",
            true,
            String.format(
                Locale.ROOT,
                "%.2f× raw single writer; %.2f transactions per write step, mean batch %.1f",
                Stats.median(vsSingle),
                (double) used.transactions() / steps,
                (double) used.commits() / used.transactions())));
    if (n == 16) {
      double perStep = Stats.median(stepsVsSingle);
      report.add(
          new Row(
              "2",
              "write steps/s, 16 runs, group commit, SQLite",
              String.format(Locale.ROOT, "%,.0f steps/s", Stats.median(stepRates)),
              perSecond(Stats.median(rawOne)) + " (raw single writer)",
              perStep,
              Row.goalAndFloor(1.0, 0.5),
              Row.goalOrFloor(perStep, 1.0, 0.5),
              String.format(
                  Locale.ROOT,
                  "fsync per batch (mean %.1f commits); one writer lock; 16 threads on 2 cores;"
                      + " %.2f commits per step",
                  (double) used.commits() / used.transactions(),
                  (double) used.commits() / steps),
              true,
              ""));
      double x = Stats.median(scaling);
      report.add(
          new Row(
              "2",
              "throughput of 16 runs vs 1 run, same store, same rounds",
              perSecond(Stats.median(ratchet)),
              "Ratchet, 1 run alone",
              x,
              "≥ 3× 1 run (issue 9)",
              Row.atLeast(x, 3.0),
              "batches amortise the fsync; then the single writer and 2 cores bound it",
              true,
              ""));
      double tx = (double) (used.transactions() + used.leaseWrites()) / steps;
      report.add(
          new Row(
              "6",
              "durable transactions per write step, 16 runs, group commit",
              String.format(Locale.ROOT, "%.3f", tx),
              "1 (D22 steady state)",
              tx,
              "—",
              "—",
              "group commit: one transaction carries the commits of many runs",
              true,
              ""));
    }
  }

  private static long steps(List<Driver> drivers) {
    long n = 0;
    for (Driver d : drivers) {
      n += d.steps();
    }
    return n;
  }

  static String perSecond(double rate) {
    return String.format(Locale.ROOT, "%,.0f /s", rate);
  }
}
