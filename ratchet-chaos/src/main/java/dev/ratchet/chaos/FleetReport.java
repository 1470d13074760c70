package dev.ratchet.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** The worker-scaling bench's table: rates, ratios to one worker, load average, takeover times. */
final class FleetReport {
  private FleetReport() {}

  /** The first three fields of {@code /proc/loadavg}, or "n/a" off Linux. */
  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "n/a";
    }
  }

  static String phaseLine(FleetBench.Phase p) {
    return String.format(
        Locale.ROOT,
        "%d worker(s): %d runs in %.1f s = %.1f runs/s, %.1f steps/s (load %s -> %s)",
        p.workers(),
        p.runs(),
        p.seconds(),
        p.runsPerSecond(),
        p.runsPerSecond() * FleetTasks.SHORT_STEPS,
        p.loadBefore(),
        p.loadAfter());
  }

  static String table(List<FleetBench.Phase> phases, FleetBench.Takeover t) {
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "Worker scaling on PostgreSQL (%d CPUs): %d short runs of %d steps per phase,"
                + " one run at a time per worker JVM%n%n",
            Runtime.getRuntime().availableProcessors(),
            phases.isEmpty() ? 0 : phases.get(0).runs(),
            FleetTasks.SHORT_STEPS));
    b.append("| workers | runs/s | steps/s | vs 1 worker | wall s | load avg before → after |\n");
    b.append("|---:|---:|---:|---:|---:|---|\n");
    double base = phases.isEmpty() ? 1 : phases.get(0).runsPerSecond();
    for (FleetBench.Phase p : phases) {
      b.append(
          String.format(
              Locale.ROOT,
              "| %d | %.1f | %.1f | %.2f× | %.1f | %s → %s |%n",
              p.workers(),
              p.runsPerSecond(),
              p.runsPerSecond() * FleetTasks.SHORT_STEPS,
              p.runsPerSecond() / base,
              p.seconds(),
              p.loadBefore(),
              p.loadAfter()));
    }
    if (t == null) {
      return b.append("\nTakeover not measured (--kills 0)\n").toString();
    }
    List<Long> ms = new ArrayList<>(t.millis());
    Collections.sort(ms);
    b.append(
        String.format(
            Locale.ROOT,
            "%nTakeover after SIGKILL (4 workers × 2 runs each, lease %d ms, poll %d ms):"
                + " %d kills, %d stranded runs, claim latency p50 %s ms, max %s ms%n",
            t.lease().toMillis(),
            t.poll().toMillis(),
            t.kills(),
            ms.size(),
            ms.isEmpty() ? "n/a" : Long.toString(ms.get((ms.size() - 1) / 2)),
            ms.isEmpty() ? "n/a" : Long.toString(ms.get(ms.size() - 1))));
    b.append("Latencies (ms): ").append(ms).append('\n');
    b.append("Runs never yet claimed (queued ahead in claim order) at each kill: ")
        .append(t.backlog())
        .append('\n');
    b.append("Load average at the end: ").append(loadAverage()).append('\n');
    return b.toString();
  }
}
