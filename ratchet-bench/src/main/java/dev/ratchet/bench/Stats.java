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

  static double medianOfLongs(List<Long> values) {
    return median(values.stream().map(Long::doubleValue).toList());
  }
}
