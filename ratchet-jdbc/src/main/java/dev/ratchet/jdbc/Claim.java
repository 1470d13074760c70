package dev.ratchet.jdbc;

import dev.ratchet.store.Lease;
import java.util.Objects;

/**
 * A run a worker claimed from its scheduling row (SPEC D24, ADR 0060): the row's driver and task
 * reference, the inbox count it saw (so a later park cannot sleep over a newer item), and the lease
 * the claim granted, token included.
 */
public record Claim(
    String taskId, String runId, String driver, String taskRef, long nudges, Lease lease) {
  /** The task reference of a submitted run (ADR 0061): its signed task is in the store. */
  public static final String SUBMITTED = "submitted";

  public Claim {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(driver, "driver");
    Objects.requireNonNull(taskRef, "taskRef");
    Objects.requireNonNull(lease, "lease");
  }

  /** True when the run was submitted: its task is the store's signed submission. */
  public boolean submitted() {
    return SUBMITTED.equals(taskRef);
  }

  @Override
  public String toString() {
    return "Claim[" + taskId + "/" + runId + " driver=" + driver + " v" + lease.version() + "]";
  }
}
