package dev.ratchet.error;

import java.util.List;

/**
 * No valid approval for a write that needs one ({@code APPROVAL}); {@link #reasons()} are the wire
 * names of the refused inbox items' reasons ({@link DecisionRefused.Reason}), so a driver can tell
 * an expired approval from a missing one (ADR 0072).
 */
public class ApprovalMissing extends RatchetException {
  private static final long serialVersionUID = 1L;
  private final List<String> reasons;

  public ApprovalMissing(String message, List<String> reasons) {
    super(ErrorCode.APPROVAL, message);
    this.reasons = List.copyOf(reasons);
  }

  public List<String> reasons() {
    return reasons;
  }

  /** Whether an authentic, exactly bound approval was refused only because it expired. */
  public boolean expired() {
    return reasons.contains(DecisionRefused.Reason.EXPIRED.wireName());
  }
}
