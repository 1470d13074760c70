package dev.ratchet.adapters.internal;

import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;

/**
 * What the workspace journals before it touches a file (write-ahead): enough to decide after a
 * crash whether the rename happened — the content digest before and after — and to finish the
 * receipt exactly as the interrupted call would have.
 *
 * @param hashBefore content digest before the write, null when the file was absent
 * @param hashAfter content digest after the write, null for a delete
 * @param treeAfter the predicted tree digest after the write (TreeState#treeDigest)
 * @param headBefore the git HEAD before the write, null outside git or on an unborn branch
 * @param authorizedAtMs the adapter's clock when it checked the approval and journaled this record,
 *     just before the rename: the commit time every receipt of this write carries
 * @param indeterminate the file matched neither digest at reconciliation: someone else wrote it
 */
public record IntentRecord(
    String key,
    String intentDigest,
    String kind,
    String path,
    String temp,
    String hashBefore,
    String hashAfter,
    long revisionBefore,
    String fingerprintBefore,
    String treeAfter,
    String headBefore,
    String fenceRunId,
    long fenceLeaseVersion,
    String approvalFingerprint,
    long authorizedAtMs,
    boolean indeterminate) {

  public IntentRecord asIndeterminate() {
    return new IntentRecord(
        key,
        intentDigest,
        kind,
        path,
        temp,
        hashBefore,
        hashAfter,
        revisionBefore,
        fingerprintBefore,
        treeAfter,
        headBefore,
        fenceRunId,
        fenceLeaseVersion,
        approvalFingerprint,
        authorizedAtMs,
        true);
  }

  public JsonObject toJson() {
    return JsonObject.builder()
        .put("key", key)
        .put("intent_digest", intentDigest)
        .put("kind", kind)
        .put("path", path)
        .put("temp", temp)
        .put("hash_before", hashBefore)
        .put("hash_after", hashAfter)
        .put("revision_before", revisionBefore)
        .put("fingerprint_before", fingerprintBefore)
        .put("tree_after", treeAfter)
        .put("head_before", headBefore)
        .put("fence_run_id", fenceRunId)
        .put("fence_lease_version", fenceLeaseVersion)
        .put("approval_fingerprint", approvalFingerprint)
        .put("authorized_at_ms", authorizedAtMs)
        .put("indeterminate", indeterminate)
        .build();
  }

  public static IntentRecord fromJson(JsonValue v) {
    Fields f =
        Fields.exact(
            v,
            "intent_record",
            "key",
            "intent_digest",
            "kind",
            "path",
            "temp",
            "hash_before",
            "hash_after",
            "revision_before",
            "fingerprint_before",
            "tree_after",
            "head_before",
            "fence_run_id",
            "fence_lease_version",
            "approval_fingerprint",
            "authorized_at_ms",
            "indeterminate");
    return new IntentRecord(
        f.string("key"),
        f.hex64("intent_digest"),
        f.text("kind"),
        f.string("path"),
        f.string("temp"),
        f.optionalHex64("hash_before"),
        f.optionalHex64("hash_after"),
        f.integer("revision_before", 0, Long.MAX_VALUE),
        f.hex64("fingerprint_before"),
        f.hex64("tree_after"),
        f.isNull("head_before") ? null : f.string("head_before"),
        f.text("fence_run_id"),
        f.integer("fence_lease_version", 0, Long.MAX_VALUE),
        f.optionalHex64("approval_fingerprint"),
        f.integer("authorized_at_ms", 0, Long.MAX_VALUE),
        f.bool("indeterminate"));
  }
}
