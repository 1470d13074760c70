package dev.ratchet.testkit;

import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * A {@link CrashSeam} a test arms for one point: the next arrival there throws {@link
 * SimulatedCrash}. It counts every point reached and remembers which ones fired, so a crash matrix
 * can prove each point was injected.
 */
public final class CrashPlan implements CrashSeam {
  private final Map<CrashPoint, Integer> reached = new EnumMap<>(CrashPoint.class);
  private final Set<CrashPoint> fired = EnumSet.noneOf(CrashPoint.class);
  private CrashPoint armed;

  /** The next arrival at {@code point} crashes; replaces any armed point. */
  public synchronized void arm(CrashPoint point) {
    armed = point;
  }

  public synchronized void disarm() {
    armed = null;
  }

  @Override
  public synchronized void reached(CrashPoint p) {
    reached.merge(p, 1, Integer::sum);
    if (p == armed) {
      armed = null;
      fired.add(p);
      throw new SimulatedCrash(p);
    }
  }

  public synchronized Set<CrashPoint> fired() {
    return Set.copyOf(fired);
  }

  public synchronized int count(CrashPoint p) {
    return reached.getOrDefault(p, 0);
  }
}
