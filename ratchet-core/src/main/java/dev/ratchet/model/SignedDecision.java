package dev.ratchet.model;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.sign.TrustRoot;
import dev.ratchet.store.InboxItem;
import java.util.Objects;

/**
 * A {@link Decision} with its Ed25519 signature over {@link Decision#payload()} (SPEC D19, D30), as
 * an envelope {@code {payload, key_id, signature_ed25519}}. Made by {@link #sign} where a key file
 * is at hand (the CLI), or by {@link #of} from a signature made elsewhere (a browser signs the
 * server-built payload with WebCrypto). {@link #verify} checks it against its role's trust root;
 * the front door's {@code deliver} does so before the inbox gets it.
 */
public record SignedDecision(Decision decision, SignedEnvelope envelope) {

  public SignedDecision {
    Objects.requireNonNull(decision, "decision");
    Objects.requireNonNull(envelope, "envelope");
    if (!envelope.payload().equals(decision.toJson())) {
      throw RatchetException.contract("envelope.payload: is not the decision's payload");
    }
  }

  /** {@code decision} signed with {@code key} (the key stays with the caller, D19). */
  public static SignedDecision sign(Decision decision, SigningKey key) {
    return new SignedDecision(decision, SignedEnvelope.sign(decision.toJson(), key));
  }

  /** {@code decision} with a signature made elsewhere over its {@link Decision#payload()}. */
  public static SignedDecision of(Decision decision, String keyId, String signatureEd25519) {
    return new SignedDecision(
        decision, new SignedEnvelope(decision.toJson(), keyId, signatureEd25519));
  }

  /** The decision an envelope (signed elsewhere, e.g. on an operator's machine) carries. */
  public static SignedDecision of(SignedEnvelope envelope) {
    return new SignedDecision(Decision.fromJson(envelope.payload(), "envelope.payload"), envelope);
  }

  /** Parses an envelope's canonical text, as a CLI reads one from a file. */
  public static SignedDecision parse(String envelopeJson) {
    return of(SignedEnvelope.fromJson(Json.parse(envelopeJson), "envelope"));
  }

  /**
   * Verifies the signature under {@code root} (which must be the decision's role's) and that the
   * named signer is the root's name for the key (D30); returns that name. Refusals are {@link
   * dev.ratchet.error.DecisionRefused}.
   */
  public String verify(TrustRoot root) {
    if (root.role() != decision.role()) {
      throw RatchetException.contract(
          "trust root: a " + decision.role().noun() + "'s decision is verified by its own root");
    }
    return root.verifySigner(
        envelope.keyId(), envelope.signedBytes(), envelope.signatureEd25519(), decision.signerId());
  }

  /** The inbox item that delivers it (D12): its nonce, kind and canonical envelope. */
  public InboxItem inboxItem() {
    return new InboxItem(
        decision.nonce(), decision.inboxKind(), Canonical.string(envelope.toJson()));
  }

  public String keyId() {
    return envelope.keyId();
  }

  /** SHA-256 of the whole canonical envelope: how traces name the decision. */
  public String fingerprint() {
    return envelope.fingerprint();
  }
}
