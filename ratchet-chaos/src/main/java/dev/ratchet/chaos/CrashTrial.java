package dev.ratchet.chaos;

import dev.ratchet.harness.ledger.ReferenceService;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * One crash trial while it is in flight in a batch: its plan, its environment (a reference service
 * of its own, or a workspace directory), the worker slots driving it, the highest generation seen
 * and which worker incarnation committed each generation it was told about (two claims of one
 * generation would mean two winners of one commit).
 */
final class CrashTrial {
  final CrashPlan plan;
  final RunVerdict.RunSpec spec;
  final Path ledgerDb;
  final ReferenceService service;
  final Tally tally = new Tally();
  final long startedNanos = System.nanoTime();

  /** Slots whose worker is driving the run and has not yet reported its end. */
  final Set<Integer> active = new HashSet<>();

  private final CommitClaims claims = new CommitClaims();
  private long highest;
  private int primarySteps;
  private boolean killFired;

  CrashTrial(CrashPlan plan, RunVerdict.RunSpec spec, Path ledgerDb, ReferenceService service) {
    this.plan = plan;
    this.spec = spec;
    this.ledgerDb = ledgerDb;
    this.service = service;
    tally.inc("trials");
    tally.inc("kind." + plan.kind().name().toLowerCase(Locale.ROOT));
    tally.inc(plan.split() ? "stores_split" : "stores_single");
    tally.inc("fault." + plan.fault().label());
    if (plan.approvals()) {
      tally.inc("approval_gated");
    }
  }

  long seed() {
    return plan.seed();
  }

  /**
   * A step that committed {@code generation}, told by incarnation {@code incarnation} of the worker
   * in {@code slot}. Returns true when the planned instant SIGKILL is due now (the primary worker
   * reached its step count).
   */
  boolean step(int slot, int incarnation, long generation, boolean primary) {
    tally.inc("steps");
    String who = "worker " + slot + "." + incarnation;
    String earlier = claims.claim(generation, who, "slot " + slot);
    if (earlier != null) {
      tally.inc("double_claims");
      tally.fail(
          "generation " + generation + " committed by two workers: " + earlier + " and " + who);
    }
    highest = Math.max(highest, generation);
    if (primary) {
      primarySteps++;
    }
    return killDue();
  }

  /** True once, when the planned instant SIGKILL should fire. */
  boolean killDue() {
    if (plan.fault() != CrashPlan.Fault.SIGKILL || killFired) {
      return false;
    }
    if (primarySteps >= plan.afterSteps()) {
      killFired = true;
      return true;
    }
    return false;
  }

  /** The store's generation after a kill (or at the end) must not be below anything seen. */
  void checkGeneration(long stored, String when) {
    if (stored < highest) {
      tally.inc("generation_regressions");
      tally.fail("generation went back from " + highest + " to " + stored + " " + when);
    }
    highest = Math.max(highest, stored);
  }

  /** Counts the race: one winner per committed generation, and whether both workers won some. */
  void judgeRace() {
    if (plan.fault() != CrashPlan.Fault.RACE) {
      return;
    }
    tally.inc("races");
    if (claims.oneWinnerEach()) {
      tally.inc("races_one_winner");
    }
    if (claims.raced()) {
      tally.inc("races_both_committed");
    }
  }
}
