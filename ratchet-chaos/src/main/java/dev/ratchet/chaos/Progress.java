package dev.ratchet.chaos;

import java.io.PrintStream;

/** Prints a progress line about every tenth of a campaign range (at most every 100 trials). */
final class Progress {
  private final String campaign;
  private final int total;
  private final long startedNanos;
  private final PrintStream out;
  private final int every;
  private int trials;
  private int failed;
  private long kills;

  Progress(String campaign, int total, long startedNanos, PrintStream out) {
    this.campaign = campaign;
    this.total = total;
    this.startedNanos = startedNanos;
    this.out = out;
    this.every = Math.max(1, Math.min(100, total / 10));
  }

  void trialDone(TrialResult r) {
    trials++;
    failed += r.passed() ? 0 : 1;
    kills += r.counter("kills_seam") + r.counter("kills_sigkill");
    if (trials % every == 0 || trials == total) {
      out.printf(
          "  %s: %d/%d trials, %d failed,%s %.0f s%n",
          campaign,
          trials,
          total,
          failed,
          kills > 0 ? " " + kills + " kills," : "",
          (System.nanoTime() - startedNanos) / 1e9);
      out.flush();
    }
  }
}
