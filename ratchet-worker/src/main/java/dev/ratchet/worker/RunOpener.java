package dev.ratchet.worker;

import dev.ratchet.schedule.Claim;

/**
 * Recovers a claimed run through the {@code Ratchet} front door (verify, resume) under the claimed
 * lease, which the caller's {@link ClaimedLeases} hands over. Supplied by the host (the CLI knows
 * the keys, the task files and the adapters).
 */
@FunctionalInterface
public interface RunOpener {
  /** The recovered run and its task; the worker closes the run (releasing the lease). */
  DriveContext open(Claim claim, java.util.function.BooleanSupplier draining);

  /**
   * Called before each claim attempt, idle ones included: true when what the host judges runs by
   * has changed since the last call (a trust root reloaded), so a run that waits on a decision it
   * refused may now go on; the worker then wakes every waiting run ({@link
   * dev.ratchet.schedule.SchedulingStore#wakeWaiting}, ADR 0053). By default nothing changes.
   */
  default boolean judgementChanged() {
    return false;
  }
}
