package dev.ratchet.jdbc.internal;

import java.util.Collections;

/**
 * Multi-row statements of a few fixed sizes. A statement of {@code size} rows carries fewer rows by
 * leaving the rest of its parameters NULL (the statement cache clears them) and filtering rows
 * whose first column is NULL, so each kind of statement has three texts, each compiled once per
 * connection, whatever the batch's shape. The largest size keeps every statement below 999 bound
 * parameters, SQLite's oldest default limit.
 */
final class PaddedRows {
  /** The sizes a statement comes in; a longer list is cut into statements of the largest. */
  static final int[] SIZES = {4, 16, 64};

  private PaddedRows() {}

  /** The rows the next statement carries when {@code remaining} are left: the smallest size. */
  static int size(int remaining) {
    for (int s : SIZES) {
      if (remaining <= s) {
        return s;
      }
    }
    return SIZES[SIZES.length - 1];
  }

  /** How many of {@code remaining} rows the next statement takes. */
  static int take(int remaining) {
    return Math.min(remaining, SIZES[SIZES.length - 1]);
  }

  /** {@code VALUES (?, …), …}: {@code rows} rows of {@code columns} parameters. */
  static String values(int rows, int columns) {
    String row = "(" + String.join(", ", Collections.nCopies(columns, "?")) + ")";
    return "VALUES " + String.join(", ", Collections.nCopies(rows, row));
  }
}
