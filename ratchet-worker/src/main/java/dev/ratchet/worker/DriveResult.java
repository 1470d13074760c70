package dev.ratchet.worker;

import java.time.Instant;
import java.util.Objects;

/**
 * How a {@link Driver} left a run: ended (its phase is terminal), waiting for a human decision in
 * the inbox or for a time, or yielded (draining, or a step budget for fairness) and runnable again.
 *
 * @param wakeAt when a waiting run becomes runnable by time alone (an approval's expiry, a budget
 *     window), else null: it waits for an inbox item only
 * @param reason a short, loggable reason (never a secret or an argument value)
 */
public record DriveResult(Kind kind, Instant wakeAt, String reason) {
  public enum Kind {
    ENDED,
    WAITING,
    YIELDED
  }

  public DriveResult {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(reason, "reason");
  }

  public static DriveResult ended(String reason) {
    return new DriveResult(Kind.ENDED, null, reason);
  }

  public static DriveResult waiting(String reason, Instant wakeAt) {
    return new DriveResult(Kind.WAITING, wakeAt, reason);
  }

  public static DriveResult yielded(String reason) {
    return new DriveResult(Kind.YIELDED, null, reason);
  }
}
