package dev.ratchet.ops;

import dev.ratchet.Run;
import dev.ratchet.error.RatchetException;
import dev.ratchet.schedule.Claim;
import dev.ratchet.schedule.ScheduledRun;
import dev.ratchet.schedule.SchedulingStore;
import dev.ratchet.store.Lease;
import java.util.Optional;

/**
 * After {@code ratchet resume} drove a run by hand, its scheduling row says what a worker's claim
 * would have left (issues 39 and 42): the resume took the run's lease without a claim, so a reason
 * a worker left at an earlier claim ("parked at claim: ...; 'ratchet resume RUN' drives it by
 * hand") stayed on the row after the operator did exactly that. Under the lease the resume still
 * holds, the row is claimed ({@link SchedulingStore#claimHeld}: runnable, reason cleared) and then
 * finished if the run ended, parked if it waits for a person, or left runnable if it yielded — the
 * worker's own calls. A run with no row (made by {@code ratchet run}) or an ended row is left
 * alone.
 */
public final class ResumedRows {
  private ResumedRows() {}

  /**
   * Leaves {@code run}'s row as a worker would after driving it to {@code stop}; what changed, in
   * words, or null when the row was already truthful (no reason) or there is none. The row is a
   * hint (D21): a store refusal here does not undo the resume; it is said, and a worker's next
   * claim corrects the row.
   */
  public static String settle(Session session, Run run, Driver.Stop stop) {
    Optional<SchedulingStore> found = session.schedulingIfAny();
    if (found.isEmpty()) {
      return null;
    }
    SchedulingStore sched = found.get();
    String taskId = run.state().taskId();
    String runId = run.state().runId();
    try {
      String before =
          sched.scheduled().stream()
              .filter(r -> r.taskId().equals(taskId) && r.runId().equals(runId))
              .map(ScheduledRun::reason)
              .filter(java.util.Objects::nonNull)
              .findFirst()
              .orElse(null);
      run.flush(); // D22: receipts durable before the row changes, as a worker does
      Lease lease = run.lease();
      Optional<Claim> claim = sched.claimHeld(taskId, runId, lease);
      if (claim.isEmpty()) {
        return null;
      }
      String now =
          switch (stop) {
            case ENDED -> {
              sched.finish(claim.get(), lease);
              yield "ended";
            }
            case FROZEN, AWAITING_APPROVAL, PAUSED ->
                sched.park(claim.get(), lease, null) ? "waiting" : "runnable";
            case YIELDED -> "runnable";
          };
      return before == null
          ? null
          : "scheduling row of run "
              + runId
              + " is now "
              + now
              + "; the reason an earlier claim left on it is cleared";
    } catch (RatchetException e) {
      return "scheduling row of run "
          + runId
          + " not updated ("
          + e.code()
          + ": "
          + e.getMessage()
          + "); the run was resumed, and a worker's next claim corrects the row";
    }
  }
}
