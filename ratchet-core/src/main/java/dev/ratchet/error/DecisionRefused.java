package dev.ratchet.error;

import java.util.Locale;
import java.util.Objects;

/**
 * A signed human decision (approval, refreshed approval, reviewer decision) refused by the worker
 * that read it from the inbox (SPEC D19, issue 14): code {@code APPROVAL} plus the {@link Reason}
 * that the trace, {@code resume} and {@code inspect} show beside the item's nonce and key id.
 */
public final class DecisionRefused extends RatchetException {
  private static final long serialVersionUID = 1L;

  /** Why an inbox item was refused; {@link #wireName()} is what traces and JSON carry. */
  public enum Reason {
    /** The key id is not in the run's trust root for this role. */
    UNTRUSTED_SIGNER,
    /** The Ed25519 signature does not verify under the trusted key. */
    BAD_SIGNATURE,
    /**
     * The payload names a signer (approver_id, reviewer_id, operator_id) other than the trust
     * root's name for the key that verifies it (D30).
     */
    WRONG_SIGNER,
    /** Past its wall-clock or proposal-count expiry. */
    EXPIRED,
    /** Bound to another task, run, policy, action, key, digest, case or environment. */
    WRONG_BINDING,
    /** Its nonce was already consumed by this run. */
    REPLAYED_NONCE,
    /** Not a well-formed decision envelope. */
    MALFORMED,
    /**
     * Signed and bound, but the run's rules refuse it now (D37: a migration that widens
     * permissions, or of a run that does not wait).
     */
    NOT_ALLOWED;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final Reason reason;

  public DecisionRefused(Reason reason, String message) {
    super(ErrorCode.APPROVAL, message);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  public Reason reason() {
    return reason;
  }
}
