package dev.ratchet.bench;

import java.util.List;

/**
 * How long and how large the harness measures. {@link #full()} is what BENCHMARKS.md reports;
 * {@link #smoke()} runs every figure with tiny counts so CI proves the harness works (its numbers
 * mean nothing).
 *
 * @param rounds interleaved rounds per figure (Ratchet and its baseline alternate in every round)
 * @param roundMillis length of one timed throughput measurement
 * @param warmupMillis untimed work before a figure's rounds (JIT, caches, checkpoint size)
 * @param concurrency run counts of figure 2 (and 4)
 * @param traceLengths trace lengths of figure 3
 * @param stepsPerSample write steps timed per run and round in figure 3
 * @param heapSampleRuns idle runs whose heap gives the per-run figure
 * @param heapRuns idle runs held at once for the total figure
 * @param contentChars size of each written file content (sets the checkpoint size)
 */
public record HarnessConfig(
    String mode,
    int rounds,
    long roundMillis,
    long warmupMillis,
    List<Integer> concurrency,
    List<Integer> traceLengths,
    int stepsPerSample,
    int heapSampleRuns,
    int heapRuns,
    int contentChars) {

  public HarnessConfig {
    concurrency = List.copyOf(concurrency);
    traceLengths = List.copyOf(traceLengths);
    if (rounds < 1 || stepsPerSample < 1 || heapSampleRuns < 1 || heapRuns < heapSampleRuns) {
      throw new IllegalArgumentException("counts must be positive, heapRuns >= heapSampleRuns");
    }
  }

  public static HarnessConfig full() {
    return new HarnessConfig(
        "full",
        15,
        600,
        3_000,
        List.of(1, 4, 16, 64),
        List.of(10, 1_000, 10_000),
        10,
        1_000,
        10_000,
        512);
  }

  /**
   * Between smoke and full: enough rounds for an indicative side-by-side ratio on a shared machine
   * (issue 38's batched commit was measured so), not a run of record.
   */
  public static HarnessConfig quick() {
    return new HarnessConfig(
        "quick", 6, 400, 1_000, List.of(1, 16), List.of(10, 30, 60), 2, 20, 60, 512);
  }

  public static HarnessConfig smoke() {
    return new HarnessConfig(
        "smoke", 2, 40, 40, List.of(1, 16), List.of(10, 30, 60), 2, 20, 60, 512);
  }
}
