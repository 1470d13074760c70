package dev.ratchet.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Figure 8 (issue 38): Ratchet's worker path beside DBOS's queue on the same PostgreSQL server. For
 * worker concurrency 1 and 8: DBOS's polling interval is swept (1 s down to 1 ms, one drain each of
 * 40 runs in full mode after a warm-up) and the one with the most runs/s is compared; then rounds
 * alternate a drain of N runs on each side (the order rotates) and the ratio is the median of
 * per-round ratios. Then the submit-to-done latency of one run at a time on an idle worker
 * (concurrency 1), on both sides alternately. CPU per run: this JVM's and each side's server
 * processes, over the timed drains.
 */
final class QueueRounds {
  static final String DBOS_CLASS = "dev.ratchet.bench.DbosQueue";
  private static final List<Duration> SWEEP =
      List.of(
          Duration.ofSeconds(1),
          Duration.ofMillis(100),
          Duration.ofMillis(10),
          Duration.ofMillis(1));

  private final HarnessConfig cfg;
  private final Report report;
  private final Log log;

  QueueRounds(HarnessConfig cfg, Report report, Log log) {
    this.cfg = cfg;
    this.report = report;
    this.log = log;
  }

  /** DBOS's queue side on its own database of the server at {@code url}, if compiled in. */
  static Optional<QueueSide> dbos(String url, String admin, Log log) {
    try {
      Class<?> c = Class.forName(DBOS_CLASS);
      return Optional.of(
          (QueueSide) c.getConstructor(String.class, String.class).newInstance(url, admin));
    } catch (ClassNotFoundException e) {
      log.line("figure 8: DBOS is not on the class path (run with -Pdbos)");
      return Optional.empty();
    } catch (ReflectiveOperationException | RuntimeException e) {
      log.line("figure 8: DBOS could not start: " + e);
      return Optional.empty();
    }
  }

  void run(WorkerPath ours, QueueSide theirs, CpuMeter meter) throws Exception {
    boolean full = "full".equals(cfg.mode());
    int n = full ? 300 : 12;
    int rounds = full ? 5 : 1;
    // The warm-up and the sweep drain fewer runs: at a 1 s poll and concurrency 1 DBOS takes one
    // run a second, so 300 would cost five minutes to learn that 1 s is the slowest interval.
    int probe = full ? 40 : n;
    ours.drain(probe, 1, new ArrayList<>()); // warm-up of both sides, untimed
    theirs.drain(probe, 1, new ArrayList<>());
    for (int c : List.of(1, 8)) {
      Duration best = sweep(theirs, probe, c);
      List<Double> ourRates = new ArrayList<>();
      List<Double> theirRates = new ArrayList<>();
      List<Double> ratios = new ArrayList<>();
      List<Long> ourLatency = new ArrayList<>();
      List<Long> theirLatency = new ArrayList<>();
      CpuMeter.Usage ourCpu = CpuMeter.Usage.ZERO;
      CpuMeter.Usage theirCpu = CpuMeter.Usage.ZERO;
      for (int r = 0; r < rounds; r++) {
        double a = 0;
        double b = 0;
        for (int k = 0; k < 2; k++) {
          CpuMeter.Sample before = meter.read();
          if ((k + r) % 2 == 0) {
            a = n / ours.drain(n, c, ourLatency);
            ourCpu = ourCpu.plus(meter.read().since(before));
          } else {
            b = n / theirs.drain(n, c, theirLatency);
            theirCpu = theirCpu.plus(meter.read().since(before));
          }
        }
        ourRates.add(a);
        theirRates.add(b);
        ratios.add(a / b);
        log.line(
            String.format(
                Locale.ROOT,
                "  queue c=%d round %d: Ratchet %.1f runs/s, DBOS (poll %d ms) %.1f runs/s",
                c,
                r,
                a,
                best.toMillis(),
                b));
      }
      double ratio = Stats.median(ratios);
      long runs = (long) n * rounds;
      report.add(
          new Row(
              "8",
              "runs/s of "
                  + QueueSide.STEPS
                  + "-step runs, 1 worker, concurrency "
                  + c
                  + ", PostgreSQL: submit (Java API) → claim → run → finish vs DBOS queue",
              String.format(Locale.ROOT, "%,.1f runs/s", Stats.median(ourRates)),
              String.format(
                  Locale.ROOT,
                  "%,.1f runs/s (DBOS queue, poll %d ms)",
                  Stats.median(theirRates),
                  best.toMillis()),
              ratio,
              "goal ≥ 1.5×, floor 1.0×",
              Row.goalOrFloor(ratio, 1.5, 1.0),
              cpu(ourCpu, ours.database(), theirCpu, theirs.database(), runs),
              true,
              String.format(
                  Locale.ROOT,
                  "%d runs per drain; submit-to-done under load: Ratchet %s, DBOS %s",
                  n,
                  Stats.p50p99(ourLatency),
                  Stats.p50p99(theirLatency))));
    }
    idleLatency(ours, theirs, full ? 40 : 3);
  }

  /** The polling interval with the most runs/s for DBOS at {@code c}; it stays set. */
  private Duration sweep(QueueSide theirs, int n, int c) throws Exception {
    Duration best = SWEEP.get(0);
    double bestRate = -1;
    List<String> seen = new ArrayList<>();
    for (Duration p : SWEEP) {
      poll(theirs, p);
      double rate = n / theirs.drain(n, c, new ArrayList<>());
      seen.add(String.format(Locale.ROOT, "%d ms: %.1f runs/s", p.toMillis(), rate));
      if (rate > bestRate) {
        bestRate = rate;
        best = p;
      }
    }
    poll(theirs, best);
    log.line("  DBOS queue poll sweep, concurrency " + c + ": " + String.join(", ", seen));
    return best;
  }

  private void idleLatency(WorkerPath ours, QueueSide theirs, int samples) throws Exception {
    List<Long> a = new ArrayList<>();
    List<Long> b = new ArrayList<>();
    for (int i = 0; i < samples; i++) {
      if (i % 2 == 0) {
        ours.drain(1, 1, a);
        theirs.drain(1, 1, b);
      } else {
        theirs.drain(1, 1, b);
        ours.drain(1, 1, a);
      }
    }
    double ratio = Stats.quantile(a, 0.5) / Stats.quantile(b, 0.5);
    report.add(
        new Row(
            "8",
            "submit-to-done p50 of one "
                + QueueSide.STEPS
                + "-step run, idle worker (concurrency 1), PostgreSQL, vs DBOS queue",
            String.format(Locale.ROOT, "%.1f ms", Stats.quantile(a, 0.5) / 1e6),
            String.format(Locale.ROOT, "%.1f ms (DBOS)", Stats.quantile(b, 0.5) / 1e6),
            ratio,
            "goal ≤ 0.5×, floor ≤ 1.0×",
            ratio <= 0.5 ? "meets the goal" : ratio <= 1.0 ? "meets the floor" : "does not meet",
            "Ratchet: a NOTIFY wakes the idle worker (no poll wait); DBOS: its queue's poll",
            true,
            String.format(
                Locale.ROOT,
                "%d samples each; Ratchet %s, DBOS %s",
                samples,
                Stats.p50p99(a),
                Stats.p50p99(b))));
  }

  private static void poll(QueueSide side, Duration interval) throws ReflectiveOperationException {
    side.getClass().getMethod("poll", Duration.class).invoke(side, interval);
  }

  private static String cpu(
      CpuMeter.Usage ours, String ourDb, CpuMeter.Usage theirs, String theirDb, long runs) {
    return String.format(
        Locale.ROOT,
        "CPU per run: Ratchet %.2f ms JVM + %s server, DBOS %.2f ms JVM + %s server (one JVM"
            + " holds both sides: each side's JVM time includes the other's idle threads)",
        ours.clientNanos() / 1e6 / runs,
        ours.server(ourDb)
            .map(ns -> String.format(Locale.ROOT, "%.2f ms", ns / 1e6 / runs))
            .orElse("n/a"),
        theirs.clientNanos() / 1e6 / runs,
        theirs
            .server(theirDb)
            .map(ns -> String.format(Locale.ROOT, "%.2f ms", ns / 1e6 / runs))
            .orElse("n/a"));
  }
}
