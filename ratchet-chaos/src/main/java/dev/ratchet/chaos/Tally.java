package dev.ratchet.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Mutable counters and failures gathered during one trial; {@link #result} freezes them. */
final class Tally {
  private final Map<String, Long> counters = new TreeMap<>();
  private final List<String> failures = new ArrayList<>();

  void add(String name, long n) {
    counters.merge(name, n, Long::sum);
  }

  void inc(String name) {
    add(name, 1);
  }

  long get(String name) {
    return counters.getOrDefault(name, 0L);
  }

  void fail(String failure) {
    failures.add(failure);
  }

  List<String> failures() {
    return failures;
  }

  TrialResult result(long seed) {
    return new TrialResult(seed, counters, failures);
  }
}
