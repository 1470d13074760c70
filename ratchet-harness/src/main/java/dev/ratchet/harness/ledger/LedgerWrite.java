package dev.ratchet.harness.ledger;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;

/**
 * One write request as the reference service received it: the endpoint's kind, the idempotency key
 * and the bindings carried in headers, and the parsed body.
 *
 * @param approvalExpiresAtMs null when the request carries no approval
 */
record LedgerWrite(
    String kind,
    String path,
    String key,
    String intentDigest,
    String fenceRunId,
    long fenceLeaseVersion,
    String approvalFingerprint,
    Long approvalExpiresAtMs,
    JsonObject body) {

  /** What "the same request" means for the key: method, path, canonical body and intent digest. */
  public String requestSha256() {
    return Canonical.sha256Hex(
        JsonObject.builder()
            .put("method", "POST")
            .put("path", path)
            .put("body", body)
            .put("intent_digest", intentDigest)
            .build());
  }
}
