package dev.ratchet.adapter;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.json.Text;
import java.util.Objects;

/**
 * The adapter's authoritative record of one committed write (SPEC §1, D3, D9). The runtime's copy
 * is a rebuildable cache; replay is claimed only when the adapter's receipt exists and its
 * fingerprint equals the cached one, i.e. every field agrees.
 *
 * @param approvalFingerprint the approval the adapter saw with the write, or null if none
 * @param businessId the business object the write created or changed, or null
 */
public record Receipt(
    String namespace,
    long adapterVersion,
    String receiptId,
    String idempotencyKey,
    String intentDigest,
    JsonObject result,
    long revisionBefore,
    long revisionAfter,
    String fingerprintBefore,
    String fingerprintAfter,
    long committedAtMs,
    String fenceRunId,
    long fenceLeaseVersion,
    String approvalFingerprint,
    String businessId) {

  public static final int MAX_KEY_LENGTH = 200;

  public Receipt {
    Text.require("receipt.namespace", namespace);
    if (adapterVersion < 1) {
      throw new IllegalArgumentException("receipt.adapter_version must be >= 1");
    }
    Text.require("receipt.receipt_id", receiptId);
    Text.require("receipt.idempotency_key", idempotencyKey, MAX_KEY_LENGTH);
    Text.requireHex64("receipt.intent_digest", intentDigest);
    Objects.requireNonNull(result, "result");
    Text.requireHex64("receipt.fingerprint_before", fingerprintBefore);
    Text.requireHex64("receipt.fingerprint_after", fingerprintAfter);
    Text.require("receipt.fence_run_id", fenceRunId);
    if (approvalFingerprint != null) {
      Text.requireHex64("receipt.approval_fingerprint", approvalFingerprint);
    }
    if (businessId != null) {
      Text.require("receipt.business_id", businessId);
    }
  }

  public JsonObject toJson() {
    return JsonObject.builder()
        .put("namespace", namespace)
        .put("adapter_version", adapterVersion)
        .put("receipt_id", receiptId)
        .put("idempotency_key", idempotencyKey)
        .put("intent_digest", intentDigest)
        .put("result", result)
        .put("revision_before", revisionBefore)
        .put("revision_after", revisionAfter)
        .put("fingerprint_before", fingerprintBefore)
        .put("fingerprint_after", fingerprintAfter)
        .put("committed_at_ms", committedAtMs)
        .put("fence_run_id", fenceRunId)
        .put("fence_lease_version", fenceLeaseVersion)
        .put("approval_fingerprint", nullable(approvalFingerprint))
        .put("business_id", nullable(businessId))
        .build();
  }

  public static Receipt fromJson(JsonValue value, String path) {
    Fields f =
        Fields.exact(
            value,
            path,
            "namespace",
            "adapter_version",
            "receipt_id",
            "idempotency_key",
            "intent_digest",
            "result",
            "revision_before",
            "revision_after",
            "fingerprint_before",
            "fingerprint_after",
            "committed_at_ms",
            "fence_run_id",
            "fence_lease_version",
            "approval_fingerprint",
            "business_id");
    return new Receipt(
        f.text("namespace"),
        f.integer("adapter_version", 1, Integer.MAX_VALUE),
        f.text("receipt_id"),
        f.text("idempotency_key", MAX_KEY_LENGTH),
        f.hex64("intent_digest"),
        f.obj("result"),
        f.integer("revision_before", 0, Long.MAX_VALUE),
        f.integer("revision_after", 0, Long.MAX_VALUE),
        f.hex64("fingerprint_before"),
        f.hex64("fingerprint_after"),
        f.integer("committed_at_ms", 0, Long.MAX_VALUE),
        f.text("fence_run_id"),
        f.integer("fence_lease_version", 0, Long.MAX_VALUE),
        f.optionalHex64("approval_fingerprint"),
        f.optionalText("business_id"));
  }

  /** SPEC D3: SHA-256 of canonical {@code {idempotency_key, receipt}} over the whole receipt. */
  public String fingerprint() {
    return Canonical.sha256Hex(
        JsonObject.builder()
            .put("idempotency_key", idempotencyKey)
            .put("receipt", toJson())
            .build());
  }

  private static JsonValue nullable(String s) {
    return s == null ? JsonNull.INSTANCE : new JsonString(s);
  }
}
