package dev.ratchet.adapters.internal;

import dev.ratchet.adapter.Receipt;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.store.Fence;
import java.util.Objects;

/**
 * What the HTTP adapter demands of a receipt the service hands back: it parses strictly, it is this
 * adapter's namespace and this key, and — for a write the service says it just executed — it binds
 * exactly the intent, fence and approval that were sent. Anything else is {@code CONTRACT}: the
 * runtime never sees a receipt the service could not stand behind.
 */
public final class ServiceReceipts {
  private ServiceReceipts() {}

  public static Receipt parse(JsonObject body, String namespace, String key, String what) {
    JsonValue raw = body.get("receipt").orElse(null);
    Receipt r;
    try {
      r = Receipt.fromJson(raw, "receipt");
    } catch (RatchetException | IllegalArgumentException | NullPointerException e) {
      throw RatchetException.contract(
          what + ": malformed receipt from the service: " + e.getMessage());
    }
    if (!r.namespace().equals(namespace)) {
      throw RatchetException.contract(
          what + ": receipt namespace '" + r.namespace() + "' is not '" + namespace + "'");
    }
    if (!r.idempotencyKey().equals(key)) {
      throw RatchetException.contract(what + ": the service returned a receipt for another key");
    }
    return r;
  }

  /** A fresh execution must bind exactly what was sent. */
  public static void requireExecutedAsSent(
      Receipt r, String digest, Fence fence, String approvalFingerprint, String what) {
    requireDigest(r, digest, what);
    if (!r.fenceRunId().equals(fence.runId()) || r.fenceLeaseVersion() != fence.leaseVersion()) {
      throw RatchetException.contract(what + ": the receipt binds another fencing token");
    }
    if (!Objects.equals(r.approvalFingerprint(), approvalFingerprint)) {
      throw RatchetException.contract(what + ": the receipt binds another approval");
    }
    if (r.revisionAfter() <= r.revisionBefore()) {
      throw RatchetException.contract(what + ": the receipt's revision did not advance");
    }
  }

  public static void requireDigest(Receipt r, String digest, String what) {
    if (!r.intentDigest().equals(digest)) {
      throw RatchetException.contract(
          what + ": the service reported success for another intent under this key");
    }
  }
}
