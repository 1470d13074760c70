package dev.ratchet.testkit;

import dev.ratchet.seam.CrashPoint;

/**
 * Thrown by test seams to stop a runtime dead at a crash point. An {@link Error}, so no runtime
 * code path catches it as a refusal; the test then discards the runtime object and recovers in a
 * fresh one from the store alone.
 */
public final class SimulatedCrash extends Error {
  private static final long serialVersionUID = 1L;

  private final CrashPoint point;

  public SimulatedCrash(CrashPoint point) {
    super("simulated crash at " + point, null, false, false);
    this.point = point;
  }

  public CrashPoint point() {
    return point;
  }
}
