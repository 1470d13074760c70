package dev.ratchet.model;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.sign.Ed25519;
import dev.ratchet.sign.SigningKey;
import java.util.Objects;

/**
 * A signed human decision (approval or reviewer decision, SPEC D19): {@code {payload, key_id,
 * signature_ed25519}}. The signature is Ed25519 over the canonical (RFC 8785) payload bytes,
 * encoded as unpadded base64url; {@code key_id} names the public key in the matching trust root
 * that verifies it (the first 16 hex digits of SHA-256 of its X.509 encoding).
 */
public record SignedEnvelope(JsonObject payload, String keyId, String signatureEd25519) {
  static final String KEY_ID_RULE = "must be 16 lowercase hex digits";
  static final String SIGNATURE_RULE =
      "must be 86 unpadded base64url characters (64 bytes), the last one A, Q, g or w (unused"
          + " trailing bits zero)";

  public SignedEnvelope {
    Objects.requireNonNull(payload, "payload");
    check("key_id", keyId, signatureEd25519);
  }

  private static void check(String keyIdPath, String keyId, String signature) {
    if (!Ed25519.isKeyId(keyId)) {
      throw RatchetException.contract(keyIdPath + ": " + KEY_ID_RULE);
    }
    if (!Ed25519.isSignatureText(signature)) {
      String prefix = keyIdPath.substring(0, keyIdPath.length() - "key_id".length());
      throw RatchetException.contract(prefix + "signature_ed25519: " + SIGNATURE_RULE);
    }
  }

  /** {@code payload} signed by {@code key}. */
  public static SignedEnvelope sign(JsonObject payload, SigningKey key) {
    return new SignedEnvelope(payload, key.keyId(), key.sign(Canonical.bytes(payload)));
  }

  /** The bytes the signature covers. */
  public byte[] signedBytes() {
    return Canonical.bytes(payload);
  }

  public JsonObject toJson() {
    return JsonObject.builder()
        .put("payload", payload)
        .put("key_id", keyId)
        .put("signature_ed25519", signatureEd25519)
        .build();
  }

  /** SHA-256 of the whole canonical envelope: how receipts and traces name an approval. */
  public String fingerprint() {
    return Canonical.sha256Hex(toJson());
  }

  public static SignedEnvelope fromJson(JsonValue v, String path) {
    Fields f = Fields.exact(v, path, "payload", "key_id", "signature_ed25519");
    String keyId = f.text("key_id");
    String signature = f.text("signature_ed25519");
    check(f.path("key_id"), keyId, signature);
    return new SignedEnvelope(f.obj("payload"), keyId, signature);
  }
}
