package dev.ratchet.adapter;

import dev.ratchet.json.Text;

/**
 * What the adapter is told about the approval behind a write (SPEC D9): the fingerprint of the
 * signed approval (null when policy needs none) and the wall-clock instant after which the adapter
 * itself must refuse to execute.
 */
public record ApprovalBinding(String approvalFingerprint, long expiresAtMs) {
  public static final ApprovalBinding NONE = new ApprovalBinding(null, Long.MAX_VALUE);

  public ApprovalBinding {
    if (approvalFingerprint != null) {
      Text.requireHex64("approval_fingerprint", approvalFingerprint);
    }
  }
}
