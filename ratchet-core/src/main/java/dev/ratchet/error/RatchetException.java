package dev.ratchet.error;

import java.util.Objects;

/**
 * The one exception family of Ratchet (SPEC D14). Every refusal of a caller's request and every
 * broken-infrastructure failure is a {@code RatchetException} with a stable {@link ErrorCode}.
 * Messages name the field and the rule that failed; they never contain key material.
 */
public class RatchetException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorCode code;

  public RatchetException(ErrorCode code, String message) {
    super(message);
    this.code = Objects.requireNonNull(code, "code");
  }

  public RatchetException(ErrorCode code, String message, Throwable cause) {
    super(message, cause);
    this.code = Objects.requireNonNull(code, "code");
  }

  public ErrorCode code() {
    return code;
  }

  /** Same code, message prefixed: used when one layer re-raises another's refusal. */
  public RatchetException withCode(ErrorCode newCode) {
    return new RatchetException(newCode, getMessage(), this);
  }

  public static RatchetException contract(String message) {
    return new RatchetException(ErrorCode.CONTRACT, message);
  }

  public static RatchetException checkpoint(String message) {
    return new RatchetException(ErrorCode.CHECKPOINT, message);
  }

  public static RatchetException approval(String message) {
    return new RatchetException(ErrorCode.APPROVAL, message);
  }

  @Override
  public String toString() {
    return "RatchetException[" + code + "]: " + getMessage();
  }
}
