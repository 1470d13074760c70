package dev.ratchet.bench;

import java.util.Locale;

/**
 * Figure 7's CPU rows: what one step cost the machine on each side (the harness JVM and the local
 * PostgreSQL server, measured by {@link CpuMeter} over the same rounds as the throughput rows), and
 * the steps/s that cost allows on this machine's cores. The ratio is Ratchet's cost over DBOS's, so
 * above 1 means Ratchet spends more per step.
 */
final class CpuRow {
  private CpuRow() {}

  /**
   * The CPU a side spent over its phases, its database on the server (its backends are charged to
   * it), and the steps it made in them.
   */
  record Cost(CpuMeter.Usage cpu, String database, long steps) {
    Cost {
      if (steps <= 0) {
        throw new IllegalArgumentException("steps must be positive, was " + steps);
      }
    }

    double clientMs() {
      return cpu.clientNanos() / 1e6 / steps;
    }

    boolean serverKnown() {
      return cpu.server(database).isPresent();
    }

    double serverMs() {
      return cpu.server(database).orElseThrow() / 1e6 / steps;
    }

    /** The server's processes of no database (WAL writer, checkpointer) during its phases. */
    double sharedMs() {
      return cpu.server("").orElseThrow() / 1e6 / steps;
    }

    /** Client and server if both are known, else the client alone. */
    double totalMs(boolean withServer) {
      return withServer ? clientMs() + serverMs() : clientMs();
    }

    String describe(boolean withServer) {
      return withServer
          ? String.format(
              Locale.ROOT,
              "%.3f ms (JVM %.3f + server %.3f)",
              totalMs(true),
              clientMs(),
              serverMs())
          : String.format(Locale.ROOT, "%.3f ms (JVM only)", clientMs());
    }
  }

  static Row of(int n, int workflowSteps, int outputBytes, Cost ours, Cost theirs) {
    return of(
        n, workflowSteps, outputBytes, ours, theirs, Runtime.getRuntime().availableProcessors());
  }

  static Row of(int n, int workflowSteps, int outputBytes, Cost ours, Cost theirs, int cores) {
    boolean server = ours.serverKnown() && theirs.serverKnown();
    double ourMs = ours.totalMs(server);
    double theirMs = theirs.totalMs(server);
    return new Row(
        "7",
        "CPU per write step ("
            + (server
                ? "harness JVM + its database's server processes"
                : "harness JVM; server not visible")
            + "), "
            + PeerRounds.sides(n, workflowSteps, outputBytes),
        ours.describe(server),
        theirs.describe(server) + " (DBOS)",
        ourMs / theirMs,
        "—",
        "—",
        String.format(
            Locale.ROOT,
            "CPU: at these costs %d cores allow at most %,.0f steps/s for Ratchet and %,.0f for"
                + " DBOS",
            cores,
            ceiling(cores, ourMs),
            ceiling(cores, theirMs)),
        true,
        server
            ? String.format(
                Locale.ROOT,
                "CPU time over the same rounds as the throughput rows, per step (%,d Ratchet steps,"
                    + " %,d DBOS steps); a side's server time is that of the processes on its"
                    + " database (backends, autovacuum); the processes of none (WAL writer,"
                    + " checkpointer) spent %.3f ms per step in Ratchet's phases and %.3f in"
                    + " DBOS's, counted in neither",
                ours.steps(),
                theirs.steps(),
                ours.sharedMs(),
                theirs.sharedMs())
            : String.format(
                Locale.ROOT,
                "CPU time of the harness JVM over the same rounds as the throughput rows, per step"
                    + " (%,d Ratchet steps, %,d DBOS steps); the server's processes were not"
                    + " visible on this machine",
                ours.steps(),
                theirs.steps()));
  }

  /** The steps/s {@code cores} fully busy could make at {@code msPerStep} of CPU each. */
  static double ceiling(int cores, double msPerStep) {
    return cores * 1000.0 / msPerStep;
  }
}
