package dev.ratchet.sign;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import java.util.Map;
import java.util.TreeMap;

/**
 * The keys of the people allowed to sign one kind of decision (SPEC D15): approvers sign approvals,
 * reviewers sign review decisions. A signer unknown to this root is refused; there is no fallback
 * to another root or to the checkpoint key.
 */
public final class TrustRoot {
  private final Role role;
  private final Map<String, SecretKey> keysBySigner;

  private TrustRoot(Role role, Map<String, SecretKey> keysBySigner) {
    this.role = role;
    // Sorted, so toString (ids only) is the same on every run.
    this.keysBySigner = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(keysBySigner));
  }

  public static TrustRoot approvers(Map<String, SecretKey> keysBySigner) {
    return new TrustRoot(Role.APPROVER, keysBySigner);
  }

  public static TrustRoot reviewers(Map<String, SecretKey> keysBySigner) {
    return new TrustRoot(Role.REVIEWER, keysBySigner);
  }

  public Role role() {
    return role;
  }

  public boolean trusts(String signerId) {
    return keysBySigner.containsKey(signerId);
  }

  /** Throws {@code APPROVAL} unless {@code signerId} is trusted and {@code hmacHex} verifies. */
  public void verify(String signerId, byte[] message, String hmacHex) {
    SecretKey key = keysBySigner.get(signerId);
    if (key == null) {
      throw new RatchetException(
          ErrorCode.APPROVAL, role.noun() + " '" + signerId + "' is not trusted by this run");
    }
    if (!Hmac.verifyHex(key, message, hmacHex)) {
      throw new RatchetException(
          ErrorCode.APPROVAL, role.noun() + " signature of '" + signerId + "' does not verify");
    }
  }

  @Override
  public String toString() {
    return "TrustRoot[" + role.noun() + "s=" + keysBySigner.keySet() + "]";
  }

  /** The signers' keys, for {@link SecretRegistry} only. */
  java.util.Collection<SecretKey> secretKeys() {
    return keysBySigner.values();
  }
}
