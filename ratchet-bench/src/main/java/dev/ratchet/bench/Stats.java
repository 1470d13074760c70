package dev.ratchet.bench;

import java.util.Arrays;
import java.util.List;

/** Medians: robust to the tens-of-percent drift of a shared machine. */
final class Stats {
  private Stats() {}

  static double median(List<Double> values) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(v);
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  static double mean(List<Long> values) {
    return values.stream().mapToLong(Long::longValue).average().orElse(Double.NaN);
  }

  /** The {@code q}-quantile (nearest rank), e.g. 0.9. */
  static double quantile(List<Long> values, double q) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    long[] v = values.stream().mapToLong(Long::longValue).sorted().toArray();
    int rank = (int) Math.ceil(q * v.length);
    return v[Math.max(0, Math.min(v.length - 1, rank - 1))];
  }

  static double medianOfLongs(List<Long> values) {
    return median(values.stream().map(Long::doubleValue).toList());
  }

  /** "p50 x ms, p99 y ms" of durations in nanoseconds. */
  static String p50p99(List<Long> nanos) {
    return String.format(
        java.util.Locale.ROOT,
        "p50 %.2f ms, p99 %.2f ms",
        quantile(nanos, 0.5) / 1e6,
        quantile(nanos, 0.99) / 1e6);
  }
}
