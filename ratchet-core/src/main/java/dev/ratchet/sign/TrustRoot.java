package dev.ratchet.sign;

import dev.ratchet.error.DecisionRefused;
import dev.ratchet.error.RatchetException;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The public keys of the people allowed to sign one kind of decision (SPEC D19): approvers sign
 * approvals, reviewers sign review decisions, operators sign cancels and submitted tasks. Public
 * keys only: whoever reads a worker's trust root cannot sign with it. Keys are found by key id; a
 * key unknown to this root is refused, with no fallback to another root or to the checkpoint key.
 */
public final class TrustRoot {
  private final Role role;
  private final Map<String, TrustedKey> keysById;

  private TrustRoot(Role role, Collection<TrustedKey> keys) {
    this.role = role;
    TreeMap<String, TrustedKey> byId = new TreeMap<>();
    for (TrustedKey k : keys) {
      if (byId.put(k.keyId(), k) != null) {
        throw RatchetException.contract(
            role.noun() + " key id '" + k.keyId() + "' appears twice in the trust root");
      }
    }
    // Sorted, so toString is the same on every run.
    this.keysById = java.util.Collections.unmodifiableSortedMap(byId);
  }

  public static TrustRoot approvers(Collection<TrustedKey> keys) {
    return of(Role.APPROVER, keys);
  }

  /** The trust root of {@code role} holding {@code keys} (public keys only). */
  public static TrustRoot of(Role role, Collection<TrustedKey> keys) {
    return new TrustRoot(java.util.Objects.requireNonNull(role, "role"), keys);
  }

  /** Operators: who may cancel a run or submit a task (SPEC D19, D24). */
  public static TrustRoot operators(Collection<TrustedKey> keys) {
    return of(Role.OPERATOR, keys);
  }

  public static TrustRoot reviewers(Collection<TrustedKey> keys) {
    return of(Role.REVIEWER, keys);
  }

  public Role role() {
    return role;
  }

  public boolean trusts(String keyId) {
    return keysById.containsKey(keyId);
  }

  /** The label of a trusted key id. */
  public Optional<String> label(String keyId) {
    return Optional.ofNullable(keysById.get(keyId)).map(TrustedKey::label);
  }

  /**
   * Refuses ({@link DecisionRefused}, code {@code APPROVAL}) unless {@code keyId} is trusted and
   * {@code signature} is its Ed25519 signature of {@code message}.
   */
  public void verify(String keyId, byte[] message, String signature) {
    TrustedKey key = keysById.get(keyId);
    if (key == null) {
      throw new DecisionRefused(
          DecisionRefused.Reason.UNTRUSTED_SIGNER,
          role.noun() + " key '" + keyId + "' is not trusted by this run");
    }
    byte[] sig = Ed25519.decodeSignature(signature);
    if (sig == null || !Ed25519.verify(key.publicKey(), message, sig)) {
      throw new DecisionRefused(
          DecisionRefused.Reason.BAD_SIGNATURE,
          role.noun()
              + " signature under key '"
              + keyId
              + "' ("
              + key.label()
              + ") does not verify");
    }
  }

  /**
   * As {@link #verify(String, byte[], String)}, and then the signer's name: the payload's
   * self-declared {@code declaredSigner} (approver_id, reviewer_id, operator_id) must be this
   * root's name for the verifying key, else {@link DecisionRefused.Reason#WRONG_SIGNER} (D30).
   * Returns that name, the only one to show or trace.
   */
  public String verifySigner(
      String keyId, byte[] message, String signature, String declaredSigner) {
    verify(keyId, message, signature);
    String name = keysById.get(keyId).label();
    if (!name.equals(declaredSigner)) {
      throw new DecisionRefused(
          DecisionRefused.Reason.WRONG_SIGNER,
          role.noun()
              + " key '"
              + keyId
              + "' is trusted as '"
              + name
              + "' but the decision names its signer '"
              + declaredSigner
              + "'");
    }
    return name;
  }

  @Override
  public String toString() {
    return "TrustRoot[" + role.noun() + "s=" + keysById.keySet() + "]";
  }
}
