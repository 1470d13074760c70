package dev.ratchet.store;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;

/**
 * A checkpoint commit that the store refused: another worker advanced the run ({@code LostRace}) or
 * this worker's lease is no longer current ({@code Fenced}). Nothing was written, and the {@link
 * Run} that raised it is stale: resume the run again to continue.
 */
public final class CommitRefused extends RatchetException {
  private static final long serialVersionUID = 1L;

  private final transient CommitResult result;

  public CommitRefused(CommitResult result, String message) {
    super(ErrorCode.FENCED, message);
    this.result = result;
  }

  public CommitResult result() {
    return result;
  }
}
