package dev.ratchet.console;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;

/**
 * A request the console cannot read (a malformed escape, an oversized form): answered 400 with this
 * message and no stack trace, before or after authentication.
 */
final class BadRequest extends RatchetException {
  private static final long serialVersionUID = 1L;

  BadRequest(String message) {
    super(ErrorCode.CONTRACT, message);
  }
}
