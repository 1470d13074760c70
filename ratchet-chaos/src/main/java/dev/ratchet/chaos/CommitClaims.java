package dev.ratchet.chaos;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which worker committed each generation of one run, as the workers tell it (a worker reports only
 * a generation its own commit made). Two claimants of one generation are two winners of one commit;
 * a run claimed by more than one worker was raced for.
 */
final class CommitClaims {
  private final Map<Long, String> byGeneration = new HashMap<>();
  private final Set<String> workers = new HashSet<>();
  private boolean twoWinners;

  /**
   * Records that {@code claimant} (a worker incarnation) of {@code worker} committed {@code
   * generation}; returns the earlier claimant when another one already did, else null.
   */
  String claim(long generation, String claimant, String worker) {
    workers.add(worker);
    String earlier = byGeneration.putIfAbsent(generation, claimant);
    if (earlier != null && !earlier.equals(claimant)) {
      twoWinners = true;
      return earlier;
    }
    return null;
  }

  /** More than one worker committed to the run. */
  boolean raced() {
    return workers.size() > 1;
  }

  /** No generation had two claimants. */
  boolean oneWinnerEach() {
    return !twoWinners;
  }
}
