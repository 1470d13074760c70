package dev.ratchet.worker;

import dev.ratchet.error.RatchetException;
import dev.ratchet.schedule.Claim;

/**
 * What a worker writes on a scheduling row when it cannot go on with a claimed run (issue 39), for
 * {@code status}, {@code inspect} and the console: what happened and what an operator does next.
 * The refusal's code and message only (never a secret: refusals name fields and rules).
 */
final class ClaimReasons {
  private ClaimReasons() {}

  /** A run never started, whose row is ended: it can only be submitted again. */
  static String ended(RatchetException e) {
    return "ended at claim, never started: "
        + e.code()
        + ": "
        + e.getMessage()
        + "; fix the task and submit it again under a new run id";
  }

  /** A started run whose resume was refused, parked with no wake-up time. */
  static String parked(Claim claim, RatchetException e) {
    return "parked at claim: "
        + e.code()
        + ": "
        + e.getMessage()
        + "; fix the cause, then 'ratchet resume "
        + claim.runId()
        + "' drives it by hand (a worker claims it again only after an inbox item or a trust"
        + " change)";
  }

  /** A run whose driver no worker here has. */
  static String noDriver(Claim claim) {
    return "parked at claim: this worker has no driver named '"
        + claim.driver()
        + "'; run a worker that has it (it claims the run after an inbox item or a trust change)";
  }
}
