package dev.ratchet.jdbc.internal;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import java.sql.SQLException;

/** Maps broken infrastructure to the one exception family (SPEC D14): fail closed. */
public final class Failures {
  private Failures() {}

  public static RatchetException unavailable(String what, Throwable cause) {
    String detail = cause == null || cause.getMessage() == null ? "" : ": " + cause.getMessage();
    // A driver's message may echo the URL it was given: never a password (issue 14).
    return new RatchetException(
        ErrorCode.STORE_UNAVAILABLE, dev.ratchet.jdbc.Passwords.redact(what + detail), cause);
  }

  public static RatchetException unavailable(String what) {
    return new RatchetException(ErrorCode.STORE_UNAVAILABLE, what);
  }

  public static RatchetException internal(String what) {
    return new RatchetException(ErrorCode.INTERNAL, what);
  }

  /** A row the store wrote is no longer well formed: someone edited the database. */
  public static RatchetException corrupt(String what, RuntimeException cause) {
    return new RatchetException(ErrorCode.CHECKPOINT, what + ": " + cause.getMessage(), cause);
  }

  static RatchetException sql(Side side, String action, SQLException e) {
    return unavailable(side.describe() + ": " + action + " failed", e);
  }

  /** The server's own message of a refusal raised by a store function, without its prefix. */
  static String serverMessage(SQLException e) {
    String m = e.getMessage() == null ? "" : e.getMessage().lines().findFirst().orElse("");
    return m.startsWith("ERROR: ") ? m.substring("ERROR: ".length()) : m;
  }
}
