package dev.ratchet.bench;

/**
 * One line of the table: a figure measured by Ratchet, the baseline measured beside it in the same
 * run, their ratio, the target, whether the figure meets it, and what bounds it.
 *
 * @param figure the figure number (1–6) with its variant
 * @param ratchet what Ratchet achieved, formatted with its unit
 * @param baseline the baseline, formatted with its unit (the same unit as {@code ratchet})
 * @param ratio {@code ratchet / baseline} as a number; NaN when not measured
 * @param target the target (issue 16's goal and floor where it set them), or "—"
 * @param verdict "meets the goal", "meets the floor", "meets", "does not meet", or "—" when there
 *     is no target
 * @param boundBy what limits the figure on this machine (fsync, CPU, lock)
 * @param measured false for a figure this run could not measure (then {@code note} says why)
 */
public record Row(
    String figure,
    String measure,
    String ratchet,
    String baseline,
    double ratio,
    String target,
    String verdict,
    String boundBy,
    boolean measured,
    String note) {

  static Row notMeasured(String figure, String measure, String target, String why) {
    return new Row(figure, measure, "—", "—", Double.NaN, target, "—", "—", false, why);
  }

  /** A measured row with no target of its own (a bound, a breakdown): no verdict, no note. */
  static Row untargeted(
      String figure,
      String measure,
      String ratchet,
      String baseline,
      double ratio,
      String boundBy) {
    return new Row(figure, measure, ratchet, baseline, ratio, "—", "—", boundBy, true, "");
  }

  /** A verdict for "at least {@code goal}". */
  static String atLeast(double value, double goal) {
    return value >= goal ? "meets" : "does not meet";
  }

  /** A verdict for "at most {@code goal}". */
  static String atMost(double value, double goal) {
    return value <= goal ? "meets" : "does not meet";
  }

  /** The target text of issue 16's rows: a goal to aim for and a floor that must hold. */
  static String goalAndFloor(double goal, double floor) {
    return String.format(java.util.Locale.ROOT, "goal ≥ %.1f×, floor %.1f×", goal, floor);
  }

  /**
   * A verdict for "at least {@code goal}, and at least {@code floor} must hold" (issue 16): the
   * goal met, only the floor met, or not met.
   */
  static String goalOrFloor(double value, double goal, double floor) {
    if (value >= goal) {
      return "meets the goal";
    }
    return value >= floor ? "meets the floor" : "does not meet";
  }
}
