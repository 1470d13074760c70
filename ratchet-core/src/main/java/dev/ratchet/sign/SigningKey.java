package dev.ratchet.sign;

import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Objects;

/**
 * One human's own Ed25519 private key (SPEC D19), held only by that person's operator tools — never
 * by a worker. {@link #toString()} shows the label and key id only; the private key never leaves
 * this object except into {@link Ed25519#sign} and {@link Pem#writePrivate}.
 */
public final class SigningKey {
  private final String label;
  private final PrivateKey privateKey;
  private final TrustedKey publicKey;

  private SigningKey(String label, PrivateKey privateKey, PublicKey publicKey) {
    this.label = dev.ratchet.json.Text.require("label", label);
    this.privateKey = Objects.requireNonNull(privateKey, "privateKey");
    this.publicKey = TrustedKey.of(label, publicKey);
  }

  /** {@code label} is a human's name: shown, never trusted (the key id is what counts). */
  public static SigningKey of(String label, PrivateKey privateKey) {
    return new SigningKey(label, privateKey, Ed25519.publicKeyOf(privateKey));
  }

  public static SigningKey of(String label, KeyPair pair) {
    return new SigningKey(label, pair.getPrivate(), pair.getPublic());
  }

  public String label() {
    return label;
  }

  public String keyId() {
    return publicKey.keyId();
  }

  /** The public half, as a trust root would hold it. */
  public TrustedKey trusted() {
    return publicKey;
  }

  /** The unpadded base64url Ed25519 signature of {@code message}. */
  public String sign(byte[] message) {
    return Ed25519.encodeSignature(Ed25519.sign(privateKey, message));
  }

  PrivateKey privateKey() {
    return privateKey;
  }

  @Override
  public String toString() {
    return "SigningKey[" + label + ", key_id=" + keyId() + "]";
  }
}
