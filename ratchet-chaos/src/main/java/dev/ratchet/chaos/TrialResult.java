package dev.ratchet.chaos;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one seeded trial saw: named counters (mutations, kills, duplicates...) and every broken
 * expectation. A trial passes when {@code failures} is empty.
 */
public record TrialResult(long seed, Map<String, Long> counters, List<String> failures) {
  public TrialResult {
    counters = Map.copyOf(new LinkedHashMap<>(counters));
    failures = List.copyOf(failures);
  }

  public boolean passed() {
    return failures.isEmpty();
  }

  public long counter(String name) {
    return counters.getOrDefault(name, 0L);
  }
}
