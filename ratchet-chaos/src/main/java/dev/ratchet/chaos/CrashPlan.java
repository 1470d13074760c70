package dev.ratchet.chaos;

import dev.ratchet.seam.CrashPoint;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * What one crash trial does, drawn from its seed alone: the task (ledger or workspace; a quarter of
 * them with every write approval-gated, so the approval window can be killed in too), the store
 * layout (one SQLite database, or split mark and content), the fault and the lease. The supervisor
 * and {@link CrashWorker} both read it from the seed, so a failing trial reruns with one seed.
 *
 * <ul>
 *   <li>{@link Fault#SEAM}: the worker parks the run's thread in crash window {@code point} on its
 *       {@code visit}-th visit and the supervisor SIGKILLs the whole worker JVM there;
 *   <li>{@link Fault#SIGKILL}: the supervisor SIGKILLs the worker after the run's {@code
 *       afterSteps}-th step and a further {@code delayMicros};
 *   <li>{@link Fault#RACE}: both workers drive the run at once on short leases and stall past them,
 *       so they take the run over from each other;
 *   <li>{@link Fault#EXPIRY}: one worker on a short lease that it sometimes lets lapse;
 *   <li>{@link Fault#NONE}: no planned fault (a kill of its worker for another run's sake still
 *       crashes it at an arbitrary instant).
 * </ul>
 */
record CrashPlan(
    long seed,
    ChaosTasks.Kind kind,
    boolean split,
    Fault fault,
    CrashPoint point,
    int visit,
    int afterSteps,
    int delayMicros,
    long ttlMs,
    int stallPermille,
    boolean approvals) {

  enum Fault {
    NONE,
    SEAM,
    SIGKILL,
    RACE,
    EXPIRY;

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Normal leases are short enough that a replacement worker waits little for a dead one's. */
  static final long NORMAL_TTL_MS = 1_500;

  private static final List<CrashPoint> SINGLE_STORE_WINDOWS =
      List.of(
          CrashPoint.BEFORE_PROPOSAL,
          CrashPoint.AFTER_INTENT_COMMIT,
          CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT,
          CrashPoint.BEFORE_RECEIPT_COMMIT,
          CrashPoint.RECEIPT_ONLY_IN_MEMORY,
          CrashPoint.INSIDE_CARRYING_COMMIT,
          CrashPoint.AFTER_RECEIPT_COMMIT);

  /**
   * The plan of trial {@code seed}. The fault mix plans a SIGKILL in 30 % of the trials (seam 18 %,
   * instant 12 %), so well over 2,000 kills come with 10,000 trials even though a kill for another
   * run's sake sometimes gets there first; races 15 %, lapsing leases 15 %. ({@code
   * SplittableRandom}: {@code new Random(seed)} gives consecutive seeds correlated first draws.)
   * The canary aims every trial's kill at the adapter's window after its external commit.
   */
  static CrashPlan of(long seed, boolean canary) {
    SplittableRandom rnd = new SplittableRandom(seed);
    ChaosTasks.Kind kind = rnd.nextBoolean() ? ChaosTasks.Kind.LEDGER : ChaosTasks.Kind.WORKSPACE;
    boolean split = rnd.nextInt(3) == 0;
    int roll = rnd.nextInt(100);
    Fault fault =
        canary
            ? Fault.SEAM
            : roll < 18
                ? Fault.SEAM
                : roll < 30
                    ? Fault.SIGKILL
                    : roll < 45 ? Fault.RACE : roll < 60 ? Fault.EXPIRY : Fault.NONE;
    List<CrashPoint> windows = windows(split);
    CrashPoint point =
        canary
            ? CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT
            : windows.get(rnd.nextInt(windows.size()));
    int visit = canary ? 1 : 1 + rnd.nextInt(3);
    int afterSteps = rnd.nextInt(6);
    int delayMicros = rnd.nextInt(20_000);
    boolean shortLease = fault == Fault.RACE || fault == Fault.EXPIRY;
    long ttl = shortLease ? 100 + rnd.nextInt(400) : NORMAL_TTL_MS;
    int stall = shortLease ? 50 + rnd.nextInt(200) : 0;
    // Drawn last, so every earlier draw of a seed is what it was before approvals existed.
    boolean approvals = rnd.nextInt(4) == 0;
    if (approvals && fault == Fault.SEAM && !canary && rnd.nextBoolean()) {
      point = CrashPoint.AFTER_APPROVAL_COMMIT; // half of them: only these tasks have the window
    }
    return new CrashPlan(
        seed, kind, split, fault, point, visit, afterSteps, delayMicros, ttl, stall, approvals);
  }

  static List<CrashPoint> windows(boolean split) {
    if (!split) {
      return SINGLE_STORE_WINDOWS;
    }
    List<CrashPoint> all = new java.util.ArrayList<>(SINGLE_STORE_WINDOWS);
    all.add(CrashPoint.STORE_BETWEEN_CONTENT_AND_MARK);
    return List.copyOf(all);
  }

  /**
   * Every window this campaign kills in: those of a receipted write (the campaign's adapters all
   * issue receipts) plus the approval window and the split store's. The two windows of an
   * unreceipted write (D23) never open here; {@code UserToolCrashTest} kills a JVM in them for
   * real.
   */
  static java.util.Set<CrashPoint> drivenWindows() {
    java.util.Set<CrashPoint> all = java.util.EnumSet.copyOf(windows(true));
    all.add(CrashPoint.AFTER_APPROVAL_COMMIT);
    return all;
  }

  /** Workers that drive the run at once. */
  int workers() {
    return fault == Fault.RACE ? 2 : 1;
  }
}
