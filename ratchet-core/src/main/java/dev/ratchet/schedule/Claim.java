package dev.ratchet.schedule;

import dev.ratchet.store.Lease;
import java.util.Objects;
import java.util.Optional;

/**
 * A run a worker claimed (SPEC D24, ADR 0060): what its first step needs — the row's driver and
 * task reference, the operator's signed task when the run was submitted (ADR 0061), the inbox count
 * the claim saw (a later park cannot sleep over a newer item), and the lease the claim granted,
 * token included.
 *
 * @param submission the signed task, exactly as submitted, when {@link #submitted()}; empty for a
 *     run scheduled with a task reference of its own (or a submitted row whose submission is gone,
 *     which the worker refuses)
 */
public record Claim(
    String taskId,
    String runId,
    String driver,
    String taskRef,
    long nudges,
    Lease lease,
    Optional<SignedSubmission> submission) {
  /** The task reference of a submitted run (ADR 0061): its signed task is in the store. */
  public static final String SUBMITTED = "submitted";

  public Claim {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(driver, "driver");
    Objects.requireNonNull(taskRef, "taskRef");
    Objects.requireNonNull(lease, "lease");
    Objects.requireNonNull(submission, "submission");
    if (!lease.held() || !lease.runId().equals(runId)) {
      throw new IllegalArgumentException("a claim carries the held lease of its own run");
    }
  }

  /**
   * True when this claim holds the first lease ever granted on its run (version 1): every commit is
   * made under a lease, so no checkpoint of the run can exist yet and a worker starts it without
   * reading the store (issue 38). False says nothing: read the store.
   */
  public boolean firstLease() {
    return lease.version() == 1;
  }

  /** True when the run was submitted: its task is the store's signed submission. */
  public boolean submitted() {
    return SUBMITTED.equals(taskRef);
  }

  @Override
  public String toString() {
    // Never the token (the lease's toString is the record's): run, driver and version only.
    return "Claim[" + taskId + "/" + runId + " driver=" + driver + " v" + lease.version() + "]";
  }
}
