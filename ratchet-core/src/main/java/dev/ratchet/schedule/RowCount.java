package dev.ratchet.schedule;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;

/**
 * The verdict of a compare-and-set by row count (db-scheduler's rule): 0 rows changed means the
 * caller lost the race, 1 that it won, more is a bug in the store — a key that should be unique is
 * not — and is thrown, never taken as a win.
 */
public final class RowCount {
  private RowCount() {}

  /** True for 1, false for 0; {@code INTERNAL} for anything else. */
  public static boolean won(long rows, String what) {
    if (rows == 0 || rows == 1) {
      return rows == 1;
    }
    throw new RatchetException(
        ErrorCode.INTERNAL, what + " changed " + rows + " rows, expected 0 (lost) or 1 (won)");
  }

  /** Exactly one row, else {@code INTERNAL}: for changes no race can lose. */
  public static void requireOne(long rows, String what) {
    if (!won(rows, what)) {
      throw new RatchetException(ErrorCode.INTERNAL, what + " changed no row, expected exactly 1");
    }
  }
}
