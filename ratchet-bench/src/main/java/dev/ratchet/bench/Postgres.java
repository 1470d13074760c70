package dev.ratchet.bench;

/**
 * Figure 4: write steps/s with 1 and 8 runs on PostgreSQL against raw single-row commits on the
 * same server. The store does not speak PostgreSQL yet ({@code Database} has only SQLite), so the
 * rows say so instead of inventing a number.
 */
final class Postgres {
  static final String NOT_YET = "not measured yet: needs the PostgreSQL dialect";

  private Postgres() {}

  static void figures(HarnessConfig cfg, Report report, Log log) {
    log.line("figure 4: " + NOT_YET);
    report.add(
        Row.notMeasured(
            "4",
            "write steps/s, 1 run, PostgreSQL",
            "—",
            NOT_YET + " (ratchet-jdbc has no PostgreSQL dialect on this branch)"));
    report.add(
        Row.notMeasured(
            "4",
            "write steps/s, 8 runs, PostgreSQL",
            "≥ 0.7× raw with 8 clients",
            NOT_YET + " (ratchet-jdbc has no PostgreSQL dialect on this branch)"));
  }
}
