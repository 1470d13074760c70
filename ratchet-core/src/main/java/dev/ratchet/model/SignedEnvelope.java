package dev.ratchet.model;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.json.Text;
import java.util.Objects;

/**
 * A signed control-plane record (approval or reviewer decision): {@code {payload, hmac_sha256}},
 * where the HMAC covers the canonical payload under the signer's key from the matching trust root.
 */
public record SignedEnvelope(JsonObject payload, String hmacSha256) {
  public SignedEnvelope {
    Objects.requireNonNull(payload, "payload");
    Text.requireHex64("hmac_sha256", hmacSha256);
  }

  public JsonObject toJson() {
    return JsonObject.builder().put("payload", payload).put("hmac_sha256", hmacSha256).build();
  }

  /** SHA-256 of the whole canonical envelope: how receipts and traces name an approval. */
  public String fingerprint() {
    return Canonical.sha256Hex(toJson());
  }

  public static SignedEnvelope fromJson(JsonValue v, String path) {
    Fields f = Fields.exact(v, path, "payload", "hmac_sha256");
    return new SignedEnvelope(f.obj("payload"), f.hex64("hmac_sha256"));
  }
}
