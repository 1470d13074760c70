package dev.ratchet.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Figure 7: Ratchet's write steps beside a peer's workflow steps on the same PostgreSQL server, in
 * interleaved rounds: in every round Ratchet's N runs make write steps for one round's time, then
 * the peer runs N workflows of 1,000 steps (200 in quick mode, 20 in smoke mode) with small outputs
 * and with outputs of Ratchet's checkpoint size, made of a real checkpoint's bytes, and figure 4's
 * bound writes the rows of N runs' write steps alone ({@link StepRows}) for one round's time (the
 * order rotates), after untimed rounds of each. A fifth arm runs N runs on a second schema whose
 * commit function is the one the current schema replaced or a candidate ({@link SecondCommit}), so
 * a change to the step is measured against the previous schema, or a candidate against this one, in
 * the same rounds. Each ratio is the median of per-round ratios.
 */
final class PeerRounds {
  private static final int SMALL_OUTPUT = 16;

  private final HarnessConfig cfg;
  private final Report report;
  private final Log log;
  private final SecondCommit secondCommit;

  PeerRounds(HarnessConfig cfg, Report report, Log log, SecondCommit secondCommit) {
    this.cfg = cfg;
    this.report = report;
    this.log = log;
    this.secondCommit = secondCommit;
  }

  /** The runs on the schema with the previous commit function. */
  record Previous(BenchStore store, List<Driver> drivers) {}

  void run(
      int n,
      BenchStore store,
      List<Driver> drivers,
      Previous previous,
      List<StepRows> rows,
      Peer peer,
      String checkpointLike,
      CpuMeter meter,
      String ourDatabase)
      throws Exception {
    int steps =
        switch (cfg.mode()) {
          case "full" -> 1_000;
          case "quick" -> 200;
          default -> 20;
        };
    String[] outputs = {"x".repeat(SMALL_OUTPUT), checkpointLike};
    List<Double> ours = new ArrayList<>();
    List<Double> alone = new ArrayList<>();
    List<Double> previousSteps = new ArrayList<>();
    CpuMeter.Usage previousCpu = CpuMeter.Usage.ZERO;
    long previousCount = 0;
    List<List<Double>> theirs = List.of(new ArrayList<>(), new ArrayList<>());
    List<Long> ourLatency = new ArrayList<>();
    BenchStore.Counts used = BenchStore.Counts.ZERO;
    long ourSteps = 0;
    List<List<Long>> theirLatency = List.of(new ArrayList<>(), new ArrayList<>());
    long[] theirSteps = new long[2];
    CpuMeter.Usage ourCpu = CpuMeter.Usage.ZERO;
    List<CpuMeter.Usage> theirCpu =
        new ArrayList<>(List.of(CpuMeter.Usage.ZERO, CpuMeter.Usage.ZERO));
    // Ratchet's runs were warmed before figure 4; the peer and the rows alone are warmed here, so
    // no side's first rounds are its JIT's (DBOS's first workflows run at a third of its speed).
    Stopwatch warming = Stopwatch.start();
    for (int i = 0; i < 2 || warming.elapsedSeconds() * 1000 < cfg.warmupMillis(); i++) {
      peer.round(n, steps, outputs[i % 2], new ArrayList<>());
    }
    Timed.parallel(n, Math.max(1, cfg.warmupMillis() / 3), w -> rows.get(w).commitOne());
    Timed.parallel(
        n, Math.max(1, cfg.warmupMillis() / 3), w -> previous.drivers().get(w).writeStep());
    for (int r = 0; r < cfg.rounds(); r++) {
      for (int k = 0; k < 5; k++) {
        int arm = (k + r) % 5;
        if (arm == 4) {
          long steps0 = total(previous.drivers());
          CpuMeter.Sample cpu = meter.read();
          Timed t =
              Timed.parallel(n, cfg.roundMillis(), w -> previous.drivers().get(w).writeStep());
          previousCpu = previousCpu.plus(meter.read().since(cpu));
          previousCount += total(previous.drivers()) - steps0;
          previousSteps.add((total(previous.drivers()) - steps0) / t.seconds());
        } else if (arm == 3) {
          alone.add(Timed.parallel(n, cfg.roundMillis(), w -> rows.get(w).commitOne()).rate());
        } else if (arm == 0) {
          long before = total(drivers);
          BenchStore.Counts counted = store.counts();
          CpuMeter.Sample cpu = meter.read();
          Timed t =
              Timed.parallel(n, cfg.roundMillis(), w -> drivers.get(w).writeStep(), ourLatency);
          ourCpu = ourCpu.plus(meter.read().since(cpu));
          used = used.plus(store.counts().minus(counted));
          ourSteps += total(drivers) - before;
          ours.add((total(drivers) - before) / t.seconds());
        } else {
          int o = arm - 1;
          CpuMeter.Sample cpu = meter.read();
          double seconds = peer.round(n, steps, outputs[o], theirLatency.get(o));
          theirCpu.set(o, theirCpu.get(o).plus(meter.read().since(cpu)));
          theirSteps[o] += (long) n * steps;
          theirs.get(o).add(n * (double) steps / seconds);
        }
      }
      log.line(
          String.format(
              Locale.ROOT,
              "  peer %d at once, round %d: Ratchet %.0f steps/s (%s %.0f), the rows alone"
                  + " %.0f, peer %.0f (small) %.0f (%d B) steps/s",
              n,
              r,
              ours.get(r),
              secondCommit.label(),
              previousSteps.get(r),
              alone.get(r),
              theirs.get(0).get(r),
              theirs.get(1).get(r),
              checkpointLike.length()));
    }
    for (int o = 0; o < 2; o++) {
      List<Double> ratios = new ArrayList<>();
      for (int r = 0; r < ours.size(); r++) {
        ratios.add(ours.get(r) / theirs.get(o).get(r));
      }
      double ratio = Stats.median(ratios);
      WriteStepTarget target = WriteStepTarget.forRuns(n);
      report.add(
          new Row(
              "7",
              "write steps/s, "
                  + sides(n, steps, outputs[o].length())
                  + (o == 0 ? "" : " (a real checkpoint's bytes)")
                  + ", PostgreSQL",
              String.format(Locale.ROOT, "%,.0f steps/s", Stats.median(ours)),
              String.format(Locale.ROOT, "%,.0f steps/s (DBOS)", Stats.median(theirs.get(o))),
              ratio,
              target.text(),
              target.verdict(ratio),
              String.format(
                  Locale.ROOT,
                  "Ratchet: %.2f commits and %.2f reads per step (counted) on a pool; DBOS: one"
                      + " step-output insert per step",
                  (double) used.commits() / ourSteps,
                  (double) used.reads() / ourSteps),
              true,
              String.format(
                  Locale.ROOT,
                  "step latency p50/p99: Ratchet %.2f/%.2f ms, DBOS %.2f/%.2f ms; %s; Ratchet: an"
                      + " effect with a receipt under a minted key, exactly once, signed state",
                  Stats.quantile(ourLatency, 0.5) / 1e6,
                  Stats.quantile(ourLatency, 0.99) / 1e6,
                  Stats.quantile(theirLatency.get(o), 0.5) / 1e6,
                  Stats.quantile(theirLatency.get(o), 0.99) / 1e6,
                  peer.guarantee())));
    }
    report.add(secondRow(n, steps, ours, previousSteps, theirs.get(0)));
    report.add(
        secondCpuRow(
            n,
            new CpuRow.Cost(ourCpu, ourDatabase, ourSteps),
            new CpuRow.Cost(previousCpu, ourDatabase, previousCount)));
    report.add(rowsAloneRow(n, steps, rows.get(0), alone, theirs.get(1), checkpointLike.length()));
    for (int o = 0; o < 2; o++) {
      report.add(
          CpuRow.of(
              n,
              steps,
              outputs[o].length(),
              new CpuRow.Cost(ourCpu, ourDatabase, ourSteps),
              new CpuRow.Cost(theirCpu.get(o), peer.database(), theirSteps[o])));
    }
  }

  /**
   * The current commit function against the previous one, same runtime, same server, same rounds;
   * the note gives the previous side's ratio to DBOS (small outputs) for comparison with the row
   * above.
   */
  private Row secondRow(
      int n, int steps, List<Double> ours, List<Double> before, List<Double> dbos) {
    List<Double> ratios = new ArrayList<>();
    List<Double> beforeToDbos = new ArrayList<>();
    for (int r = 0; r < ours.size(); r++) {
      ratios.add(ours.get(r) / before.get(r));
      beforeToDbos.add(before.get(r) / dbos.get(r));
    }
    return Row.untargeted(
        "7",
        String.format(
            Locale.ROOT,
            "write steps/s, %d %s, PostgreSQL: this schema's commit vs %s",
            n,
            n == 1 ? "run" : "runs",
            secondCommit.label()),
        String.format(Locale.ROOT, "%,.0f steps/s", Stats.median(ours)),
        String.format(
            Locale.ROOT, "%,.0f steps/s (%s)", Stats.median(before), secondCommit.label()),
        Stats.median(ratios),
        String.format(
            Locale.ROOT,
            "%s; %s against DBOS %d %s of %,d steps, outputs of %d B, in the same rounds: %.2f×",
            secondCommit.differs(),
            secondCommit.label(),
            n,
            n == 1 ? "workflow" : "workflows",
            steps,
            SMALL_OUTPUT,
            Stats.median(beforeToDbos)));
  }

  /** CPU per step of the two commit functions (the same database: their phases do not overlap). */
  private Row secondCpuRow(int n, CpuRow.Cost ours, CpuRow.Cost before) {
    boolean server = ours.serverKnown() && before.serverKnown();
    return Row.untargeted(
        "7",
        String.format(
            Locale.ROOT,
            "CPU per write step, %d %s, PostgreSQL: this schema's commit vs %s",
            n,
            n == 1 ? "run" : "runs",
            secondCommit.label()),
        ours.describe(server),
        before.describe(server) + " (" + secondCommit.label() + ")",
        ours.totalMs(server) / before.totalMs(server),
        "above 1: this schema spends more per step; measured over the same rounds as the row"
            + " above");
  }

  /**
   * Figure 4's bound against DBOS with checkpoint-sized outputs, in the same rounds: what the rows
   * of a write step cost alone, with no store checks and no runtime, over DBOS's one insert.
   */
  private static Row rowsAloneRow(
      int n, int steps, StepRows rows, List<Double> alone, List<Double> dbos, int outputBytes) {
    List<Double> ratios = new ArrayList<>();
    for (int r = 0; r < alone.size(); r++) {
      ratios.add(alone.get(r) / dbos.get(r));
    }
    return Row.untargeted(
        "7",
        String.format(
            Locale.ROOT,
            "the rows of a write step alone (figure 4's bound: %s), %d %s vs DBOS %d %s of %,d"
                + " steps, outputs of %d B",
            rows.shape(),
            n,
            n == 1 ? "client" : "clients",
            n,
            n == 1 ? "workflow" : "workflows",
            steps,
            outputBytes),
        String.format(Locale.ROOT, "%,.0f steps/s", Stats.median(alone)),
        String.format(Locale.ROOT, "%,.0f steps/s (DBOS)", Stats.median(dbos)),
        Stats.median(ratios),
        "no store checks, no runtime: the most Ratchet's ratio above could reach with this data"
            + " model on this server");
  }

  /** "N runs vs DBOS N workflows of S steps, outputs of B B": the pairing a figure 7 row names. */
  static String sides(int n, int workflowSteps, int outputBytes) {
    return String.format(
        Locale.ROOT,
        "%d %s vs DBOS %d %s of %,d steps, outputs of %d B",
        n,
        n == 1 ? "run" : "runs",
        n,
        n == 1 ? "workflow" : "workflows",
        workflowSteps,
        outputBytes);
  }

  private static long total(List<Driver> drivers) {
    long n = 0;
    for (Driver d : drivers) {
      n += d.steps();
    }
    return n;
  }
}
