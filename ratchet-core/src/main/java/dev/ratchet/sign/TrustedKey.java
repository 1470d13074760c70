package dev.ratchet.sign;

import java.security.PublicKey;
import java.util.Objects;

/**
 * A public key a trust root accepts (SPEC D19): its id derives from the key ({@link
 * Ed25519#keyId}), the label is the human-readable name shown beside it.
 */
public record TrustedKey(String keyId, String label, PublicKey publicKey) {
  public TrustedKey {
    Objects.requireNonNull(publicKey, "publicKey");
    if (!Ed25519.ALGORITHM.equals(publicKey.getAlgorithm())
        && !"EdDSA".equals(publicKey.getAlgorithm())) {
      throw dev.ratchet.error.RatchetException.contract(
          "trusted key '" + label + "' is not an Ed25519 public key");
    }
    if (!Ed25519.keyId(publicKey).equals(keyId)) {
      throw dev.ratchet.error.RatchetException.contract(
          "key id '" + keyId + "' is not the id of the key labelled '" + label + "'");
    }
    dev.ratchet.json.Text.require("label", label);
  }

  public static TrustedKey of(String label, PublicKey publicKey) {
    return new TrustedKey(Ed25519.keyId(publicKey), label, publicKey);
  }

  @Override
  public String toString() {
    return "TrustedKey[" + label + ", key_id=" + keyId + "]";
  }
}
