package dev.ratchet.outcome;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;

/**
 * A pending write did not run and is gone (ADR 0072): an approver's signed rejection dropped it
 * ({@code intent_rejected}), or the driver withdrew it ({@code intent_withdrawn}). Code {@code
 * APPROVAL}; {@link #detail()} is the trace detail (approver, reason, nonce, key). The run goes on
 * with nothing pending; a new proposal is a new intent that needs its own approval.
 */
public final class IntentRejected extends RatchetException {
  private static final long serialVersionUID = 1L;
  private final transient JsonObject detail;
  private final String actionId;

  public IntentRejected(String actionId, String message, JsonObject detail) {
    super(ErrorCode.APPROVAL, message);
    this.actionId = actionId;
    this.detail = detail;
  }

  public String actionId() {
    return actionId;
  }

  public JsonObject detail() {
    return detail;
  }
}
