package dev.ratchet.bench;

import dev.ratchet.jdbc.Database;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Figure 3: the cost of one write step and of recovery for runs whose trace is 10, 1,000 and 10,000
 * events long (D6 says neither may grow with the history). The runs are grown first and left at
 * rest (lease released); then every round times a clean recovery of each run, then one write step
 * of each run in turn, each beside one raw commit of the same size (a steady write step makes one
 * checkpoint commit, D22; the commits are counted and the baseline scaled by the count), so drift
 * hits every length and the baseline alike.
 */
final class TraceLength {
  private final HarnessConfig cfg;
  private final Path file;
  private final Report report;
  private final Log log;

  TraceLength(HarnessConfig cfg, Path file, Report report, Log log) {
    this.cfg = cfg;
    this.file = file;
    this.report = report;
    this.log = log;
  }

  void run(int checkpointBytes) {
    String body = "x".repeat(checkpointBytes);
    try (BenchStore s = new BenchStore(Database.sqlite(file), false, cfg.contentChars());
        RawSqlite raw = RawSqlite.open(file)) {
      Map<Integer, Driver> runs = new LinkedHashMap<>();
      Map<Integer, Long> firstLength = new LinkedHashMap<>();
      for (int length : cfg.traceLengths()) {
        Driver d = s.start("f3-" + length);
        while (d.traceLength() < length) {
          d.writeStep();
        }
        // At rest while the others grow: a lease left to expire would fence the run (rightly).
        d.suspend();
        runs.put(length, d);
        firstLength.put(length, d.traceLength());
        log.line("figure 3: run grown to trace length " + d.traceLength());
      }
      Map<Integer, List<Long>> stepNanos = new LinkedHashMap<>();
      Map<Integer, List<Long>> recoveryNanos = new LinkedHashMap<>();
      Map<Integer, List<Long>> lookupNanos = new LinkedHashMap<>();
      Map<Integer, List<Long>> outcomeNanos = new LinkedHashMap<>();
      runs.keySet()
          .forEach(
              l -> {
                stepNanos.put(l, new ArrayList<>());
                recoveryNanos.put(l, new ArrayList<>());
                lookupNanos.put(l, new ArrayList<>());
                outcomeNanos.put(l, new ArrayList<>());
              });
      List<Long> rawNanos = new ArrayList<>();
      List<Integer> order = new ArrayList<>(runs.keySet());
      for (Driver d : runs.values()) { // untimed: class loading and JIT of the recovery path
        d.resume();
        d.suspend();
      }
      int m = order.size();
      long timedSteps = 0;
      long timedCommits = 0;
      for (int r = 0; r < cfg.rounds(); r++) {
        for (int k = 0; k < m; k++) {
          int length = order.get((k + r) % m);
          Stopwatch recovery = Stopwatch.start();
          runs.get(length).resume();
          recoveryNanos.get(length).add(recovery.elapsedNanos());
        }
        // Authenticated lookups (D20): one record by key, anywhere in the history, MAC checked.
        for (int i = 0; i < cfg.stepsPerSample(); i++) {
          for (int k = 0; k < m; k++) {
            int length = order.get((k + r + i) % m);
            long seq = 1 + Math.floorMod(31L * (r * 131 + i + 1), firstLength.get(length));
            Stopwatch look = Stopwatch.start();
            runs.get(length).lookup(seq);
            lookupNanos.get(length).add(look.elapsedNanos());
          }
        }
        timeOutcomes(runs, order, r, outcomeNanos);
        // One step of each run in turn, each beside one raw commit (a steady step makes one commit,
        // D22): the finest interleaving. The step's commits are counted to check that.
        BenchStore.Counts before = s.counts();
        for (int i = 0; i < cfg.stepsPerSample(); i++) {
          for (int k = 0; k < m; k++) {
            int length = order.get((k + r + i) % m);
            Stopwatch one = Stopwatch.start();
            raw.commitOne(body);
            rawNanos.add(one.elapsedNanos());
            Stopwatch w = Stopwatch.start();
            runs.get(length).writeStep();
            stepNanos.get(length).add(w.elapsedNanos());
            timedSteps++;
          }
        }
        timedCommits += s.counts().minus(before).commits();
        runs.values().forEach(Driver::suspend);
      }
      double rawCommit = Stats.medianOfLongs(rawNanos);
      // The baseline is what a step commits: the counted checkpoint commits per timed step.
      double commitsPerStep = (double) timedCommits / timedSteps;
      String perStepBaseline =
          Math.round(commitsPerStep * 100) == 100
              ? " (1 raw commit)"
              : String.format(Locale.ROOT, " (%.2f raw commits)", commitsPerStep);
      Map<Integer, Double> step = new LinkedHashMap<>();
      Map<Integer, Double> recovery = new LinkedHashMap<>();
      for (int length : order) {
        step.put(length, Stats.medianOfLongs(stepNanos.get(length)));
        recovery.put(length, Stats.medianOfLongs(recoveryNanos.get(length)));
      }
      for (int length : order) {
        double st = step.get(length);
        report.add(
            new Row(
                "3",
                String.format(Locale.ROOT, "write step cost at trace length %,d", length),
                ms(st),
                ms(commitsPerStep * rawCommit) + perStepBaseline,
                st / (commitsPerStep * rawCommit),
                "—",
                "—",
                String.format(
                    Locale.ROOT,
                    "fsync: %.2f commits per step, counted (D22: the receipt rides on the next"
                        + " commit); CPU: sign, validate, adapter",
                    commitsPerStep),
                true,
                String.format(
                    Locale.ROOT,
                    "median of %d steps (trace %,d → %,d events while sampled); mean %s, p90 %s"
                        + " (raw commit: mean %s, p90 %s)",
                    stepNanos.get(length).size(),
                    firstLength.get(length),
                    runs.get(length).traceLength(),
                    ms(Stats.mean(stepNanos.get(length))),
                    ms(Stats.quantile(stepNanos.get(length), 0.9)),
                    ms(Stats.mean(rawNanos)),
                    ms(Stats.quantile(rawNanos, 0.9)))));
      }
      flatness(
          "step cost", step, TraceLength::ms, "index lookups only (D6): no scan of the history");
      for (int length : order) {
        double rec = recovery.get(length);
        report.add(
            new Row(
                "3",
                String.format(Locale.ROOT, "recovery time at trace length %,d", length),
                ms(rec),
                ms(rawCommit) + " (1 raw commit)",
                rec / rawCommit,
                "—",
                "—",
                "fsync: the lease take-over is a durable write; CPU: parse, HMAC, set heads",
                true,
                ""));
      }
      report.note(
          "3: recovery is a clean resume after the lease was released: lease acquisition (a"
              + " durable write), load, envelope and HMAC check, set counts and heads, re-observe");
      flatness(
          "recovery",
          recovery,
          TraceLength::ms,
          "signed counts and heads, each set's tip authenticated (D20): no history read");
      Map<Integer, Double> lookup = new LinkedHashMap<>();
      for (int length : order) {
        lookup.put(length, Stats.medianOfLongs(lookupNanos.get(length)));
        report.add(
            new Row(
                "3",
                String.format(Locale.ROOT, "authenticated lookup at trace length %,d", length),
                us(lookup.get(length)),
                us(rawCommit) + " (1 raw commit)",
                lookup.get(length) / rawCommit,
                "—",
                "—",
                "one indexed read and one record MAC (D20)",
                true,
                String.format(
                    Locale.ROOT,
                    "median of %d lookups of a trace record by key; p90 %s",
                    lookupNanos.get(length).size(),
                    us(Stats.quantile(lookupNanos.get(length), 0.9)))));
      }
      flatness("lookup", lookup, TraceLength::us, "record MAC: no chain walk, no scan (D20)");
      outcomeRows(order, outcomeNanos);
    }
  }

  /** Lookups in one timed batch. */
  private static final int OUTCOME_BATCH = 200;

  /**
   * Distinct earlier write steps asked about, spread evenly over the run's history: the same
   * working set at every length, so the row shows whether a lookup's cost grows with the trace (a
   * scan) and not how many distinct entries fit in the CPU's caches. A driver asks about the few
   * actions it is deciding, not about every action of the run at random.
   */
  private static final int OUTCOME_SPREAD = 10;

  /**
   * {@code Run.outcomeOf} of earlier write steps (D32), each run's index built untimed first (the
   * first call after a resume); a sample is a batch of {@value #OUTCOME_BATCH} lookups over {@value
   * #OUTCOME_SPREAD} steps spread from the first to the last, per lookup.
   */
  private void timeOutcomes(
      Map<Integer, Driver> runs, List<Integer> order, int round, Map<Integer, List<Long>> nanos) {
    runs.values().forEach(d -> d.outcomeOf(0));
    for (int i = 0; i < cfg.stepsPerSample(); i++) {
      for (int k = 0; k < order.size(); k++) {
        int length = order.get((k + round + i) % order.size());
        Driver d = runs.get(length);
        long steps = Math.max(1, d.steps());
        Stopwatch batch = Stopwatch.start();
        for (int b = 0; b < OUTCOME_BATCH; b++) {
          long nth = Math.floorMod(round * 131L + i * OUTCOME_BATCH + b, OUTCOME_SPREAD);
          d.outcomeOf(nth * steps / OUTCOME_SPREAD);
        }
        nanos.get(length).add(batch.elapsedNanos() / OUTCOME_BATCH);
      }
    }
  }

  /** The {@code outcomeOf} rows: each length, then the longest against the shortest. */
  private void outcomeRows(List<Integer> order, Map<Integer, List<Long>> nanos) {
    Map<Integer, Double> median = new LinkedHashMap<>();
    for (int length : order) {
      median.put(length, Stats.medianOfLongs(nanos.get(length)));
    }
    int shortest = order.get(0);
    for (int length : order) {
      report.add(
          new Row(
              "3",
              String.format(Locale.ROOT, "outcomeOf at trace length %,d", length),
              ns(median.get(length)),
              ns(median.get(shortest)) + " (Ratchet at " + shortest + ")",
              median.get(length) / median.get(shortest),
              "—",
              "—",
              "in-memory index of the authenticated trace (D32): a map lookup",
              true,
              String.format(
                  Locale.ROOT,
                  "median of %d batches of %d lookups of %d earlier write steps spread over the"
                      + " run; p90 %s",
                  nanos.get(length).size(),
                  OUTCOME_BATCH,
                  OUTCOME_SPREAD,
                  ns(Stats.quantile(nanos.get(length), 0.9)))));
    }
    flatness(
        "outcomeOf",
        median,
        TraceLength::ns,
        "no trace scan (D32): the index is built once per loaded run, then kept current");
  }

  static String ns(double nanos) {
    return String.format(Locale.ROOT, "%.0f ns", nanos);
  }

  /** {@code what} at the longest trace against the shortest (the map's last and first): ≤ 1.2×. */
  private void flatness(
      String what,
      Map<Integer, Double> byLength,
      java.util.function.DoubleFunction<String> unit,
      String note) {
    List<Integer> lengths = new ArrayList<>(byLength.keySet());
    int shortest = lengths.get(0);
    int longest = lengths.get(lengths.size() - 1);
    double flat = byLength.get(longest) / byLength.get(shortest);
    report.add(
        new Row(
            "3",
            String.format(
                Locale.ROOT, "%s at trace %,d vs %,d (flatness)", what, longest, shortest),
            unit.apply(byLength.get(longest)),
            unit.apply(byLength.get(shortest)) + " (Ratchet at " + shortest + ")",
            flat,
            "≤ 1.2×",
            Row.atMost(flat, 1.2),
            note,
            true,
            ""));
  }

  static String us(double nanos) {
    return String.format(Locale.ROOT, "%.1f µs", nanos / 1e3);
  }

  static String ms(double nanos) {
    return String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
  }
}
