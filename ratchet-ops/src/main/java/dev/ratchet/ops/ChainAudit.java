package dev.ratchet.ops;

import dev.ratchet.jdbc.AuditReport;
import dev.ratchet.jdbc.TraceAudit;
import dev.ratchet.model.RunState;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.RecordSet;
import java.util.EnumMap;
import java.util.Map;

/**
 * Walks every growing set of a run with the store's {@link TraceAudit}: each hash-chain link is
 * recomputed and the chain must end exactly at the count and head the verified checkpoint signs.
 * Edited, deleted, reordered, truncated or appended records are a {@code CHECKPOINT} refusal. An
 * audit reads whole sets; the runtime itself never scans them (D6).
 */
public final class ChainAudit {
  private ChainAudit() {}

  /** The verified count of every set; throws {@code CHECKPOINT} listing what is broken. */
  public static Map<RecordSet, Long> verify(
      CheckpointStore store, String taskId, String runId, RunState signed) {
    Map<RecordSet, Long> counts = new EnumMap<>(RecordSet.class);
    for (RecordSet set : RecordSet.values()) {
      AuditReport report = TraceAudit.verify(store, taskId, runId, set, signed.head(set));
      report.requireIntact();
      counts.put(set, report.signed().count());
    }
    return counts;
  }

  /** The verified count of one set; throws {@code CHECKPOINT} when its chain is broken. */
  public static long verify(
      CheckpointStore store, String taskId, String runId, RunState signed, RecordSet set) {
    AuditReport report = TraceAudit.verify(store, taskId, runId, set, signed.head(set));
    report.requireIntact();
    return report.signed().count();
  }
}
