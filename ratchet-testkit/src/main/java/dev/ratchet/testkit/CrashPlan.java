package dev.ratchet.testkit;

import dev.ratchet.CrashPoint;
import dev.ratchet.CrashSeam;
import java.util.EnumMap;
import java.util.Map;

/**
 * A {@link CrashSeam} that crashes the {@code n}-th time a chosen point is reached, and counts
 * every point reached, so a crash matrix can prove each point was injected.
 */
public final class CrashPlan implements CrashSeam {
  private final CrashPoint point;
  private final int occurrence;
  private final Map<CrashPoint, Integer> reached = new EnumMap<>(CrashPoint.class);
  private boolean fired;

  /** Crashes at the {@code occurrence}-th (1-based) arrival at {@code point}; null = never. */
  public CrashPlan(CrashPoint point, int occurrence) {
    this.point = point;
    this.occurrence = occurrence;
  }

  public static CrashPlan never() {
    return new CrashPlan(null, 0);
  }

  @Override
  public synchronized void reached(CrashPoint p) {
    int n = reached.merge(p, 1, Integer::sum);
    if (!fired && p == point && n == occurrence) {
      fired = true;
      throw new SimulatedCrash(p);
    }
  }

  public synchronized boolean fired() {
    return fired;
  }

  public synchronized int count(CrashPoint p) {
    return reached.getOrDefault(p, 0);
  }
}
