package dev.ratchet.worker;

import dev.ratchet.error.RatchetException;

/**
 * Thrown by a {@link RunOpener} when no worker may ever start or resume the claimed run: e.g. a
 * submitted task whose operator signature does not verify (ADR 0061). The worker ends the run's
 * scheduling row under the claim's lease, so it is not claimed again, and logs the reason; nothing
 * was committed for the run.
 */
public final class ClaimRefused extends RatchetException {
  private static final long serialVersionUID = 1L;

  public ClaimRefused(RatchetException cause) {
    super(cause.code(), cause.getMessage(), cause);
  }
}
