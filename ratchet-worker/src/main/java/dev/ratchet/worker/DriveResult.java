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
 * @param refused for a waiting run, the inbox items the driving refused, in words (kind, nonce, key
 *     id, reason; never a secret), or null when none was: the worker logs them as refused, so a
 *     refused decision never reads as an ordinary wait (issue 39)
 */
public record DriveResult(Kind kind, Instant wakeAt, String reason, String refused) {
  public enum Kind {
    ENDED,
    WAITING,
    YIELDED
  }

  public DriveResult {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(reason, "reason");
  }

  /** A result with no refused inbox item. */
  public DriveResult(Kind kind, Instant wakeAt, String reason) {
    this(kind, wakeAt, reason, null);
  }

  public static DriveResult ended(String reason) {
    return new DriveResult(Kind.ENDED, null, reason);
  }

  public static DriveResult waiting(String reason, Instant wakeAt) {
    return new DriveResult(Kind.WAITING, wakeAt, reason);
  }

  /**
   * Waiting after refusing inbox items ({@code refused}: what they were and why, or null when none
   * was refused).
   */
  public static DriveResult waiting(String reason, Instant wakeAt, String refused) {
    return new DriveResult(Kind.WAITING, wakeAt, reason, refused);
  }

  public static DriveResult yielded(String reason) {
    return new DriveResult(Kind.YIELDED, null, reason);
  }
}
