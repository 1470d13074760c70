package dev.ratchet.schedule;

import dev.ratchet.json.Text;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;

/**
 * One scheduling row as an operator sees it: which run, under which driver, in which state ({@code
 * runnable}, {@code waiting} or {@code ended}), whether it was submitted with a signed task, when
 * the row last changed and, for a waiting run, when it wakes. A hint, like the row (the signed
 * checkpoint decides): it makes a submitted run visible before any worker has started it.
 *
 * @param wakeAt null unless the run waits for a time
 */
public record ScheduledRun(
    String taskId,
    String runId,
    String driver,
    String state,
    boolean submitted,
    Instant updatedAt,
    Instant wakeAt) {
  /** The states a row can be in. */
  public static final Set<String> STATES = Set.of("runnable", "waiting", "ended");

  public ScheduledRun {
    Text.require("task_id", taskId);
    Text.require("run_id", runId);
    Text.require("driver", driver);
    if (!STATES.contains(state)) {
      throw new IllegalArgumentException("state must be one of " + STATES + ", not " + state);
    }
    Objects.requireNonNull(updatedAt, "updatedAt");
  }
}
