package dev.ratchet.schedule;

import dev.ratchet.json.Text;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;

/**
 * One scheduling row as an operator sees it: which run, under which driver, in which state ({@code
 * runnable}, {@code waiting} or {@code ended}), whether it was submitted with a signed task, when
 * the row last changed and, for a waiting run, when it wakes; and why a worker ended or parked it
 * when it could not go on (a refusal at claim, issue 39), with when that was said. A hint, like the
 * row (the signed checkpoint decides): it makes a submitted run visible before any worker has
 * started it.
 *
 * @param wakeAt null unless the run waits for a time
 * @param reason null unless a worker ended or parked the run with a reason since its last claim
 * @param reasonAt when {@code reason} was set; null exactly when {@code reason} is
 */
public record ScheduledRun(
    String taskId,
    String runId,
    String driver,
    String state,
    boolean submitted,
    Instant updatedAt,
    Instant wakeAt,
    String reason,
    Instant reasonAt) {
  /** The states a row can be in. */
  public static final Set<String> STATES = Set.of("runnable", "waiting", "ended");

  /** The longest reason a row keeps: a store cuts a longer one to this many characters. */
  public static final int REASON_MAX = 1000;

  /** {@code reason} cut to {@link #REASON_MAX} characters; null stays null. */
  public static String fitReason(String reason) {
    if (reason == null || reason.length() <= REASON_MAX) {
      return reason;
    }
    return reason.substring(0, REASON_MAX - 3) + "...";
  }

  public ScheduledRun {
    Text.require("task_id", taskId);
    Text.require("run_id", runId);
    Text.require("driver", driver);
    if (!STATES.contains(state)) {
      throw new IllegalArgumentException("state must be one of " + STATES + ", not " + state);
    }
    Objects.requireNonNull(updatedAt, "updatedAt");
    if ((reason == null) != (reasonAt == null)) {
      throw new IllegalArgumentException("reason and reasonAt are both set or both null");
    }
  }

  /** A row no worker gave a reason for. */
  public ScheduledRun(
      String taskId,
      String runId,
      String driver,
      String state,
      boolean submitted,
      Instant updatedAt,
      Instant wakeAt) {
    this(taskId, runId, driver, state, submitted, updatedAt, wakeAt, null, null);
  }
}
