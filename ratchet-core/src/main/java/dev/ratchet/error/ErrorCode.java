package dev.ratchet.error;

/**
 * Stable codes for every refusal and infrastructure failure (SPEC D14). The names and the exit
 * codes are part of the public contract: scripts branch on them, so they never change meaning.
 */
public enum ErrorCode {
  /** The input breaks a declared contract: shape, type, limits, unknown or missing fields. */
  CONTRACT(2),
  /** Well formed but not authorised: missing permission, target out of scope. */
  PERMISSION(3),
  /** Approval or review evidence missing, untrusted, tampered, mis-bound, expired or reused. */
  APPROVAL(4),
  /** The run is frozen in {@code needs_review}. */
  REVIEW_REQUIRED(4),
  /** The action or pending intent was built against an environment that no longer matches. */
  STALE_OBSERVATION(3),
  /** One idempotency key is tied to different intents, or cache and adapter disagree. */
  IDEMPOTENCY_CONFLICT(3),
  /** A checkpoint is malformed, unauthenticated, stale, or inconsistent. */
  CHECKPOINT(3),
  /** The run is terminal, or a budget just ran out. */
  TERMINAL(3),
  /** Completion was attempted without current passing verification. */
  VERIFICATION(3),
  /** The caller does not hold the current lease or its fencing token is older than the newest. */
  FENCED(3),
  /** The store is absent, unreachable or not initialised: fail closed. */
  STORE_UNAVAILABLE(5),
  /** A bug or an unexpected failure inside Ratchet itself. */
  INTERNAL(1);

  private final int exitCode;

  ErrorCode(int exitCode) {
    this.exitCode = exitCode;
  }

  /** The process exit code the CLI uses for this code (0 is success and never appears here). */
  public int exitCode() {
    return exitCode;
  }
}
