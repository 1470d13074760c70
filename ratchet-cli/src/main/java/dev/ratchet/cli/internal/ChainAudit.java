package dev.ratchet.cli.internal;

import dev.ratchet.RatchetException;
import dev.ratchet.model.RunState;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.RecordChain;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRecord;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Walks every stored record of a run's growing sets from the genesis head, recomputes each chain
 * link, up to the count the verified checkpoint signs, and compares the head reached with the
 * signed one. Any edit, deletion, reordering or truncation of a record is a {@code CHECKPOINT}
 * refusal naming the set and sequence. An audit, so it reads whole sets; the runtime itself never
 * scans them (D6).
 */
public final class ChainAudit {
  private static final int PAGE = 500;

  private ChainAudit() {}

  /** The verified count of every set; throws {@code CHECKPOINT} at the first broken link. */
  public static Map<RecordSet, Long> verify(
      CheckpointStore store, String taskId, String runId, RunState signed) {
    Map<RecordSet, Long> counts = new EnumMap<>(RecordSet.class);
    for (RecordSet set : RecordSet.values()) {
      SetHead head = walk(store, taskId, runId, set, signed.head(set).count());
      SetHead want = signed.head(set);
      if (!head.equals(want)) {
        throw RatchetException.checkpoint(
            set.wireName()
                + ": the stored chain (count "
                + head.count()
                + ") does not end at the signed head (count "
                + want.count()
                + ")");
      }
      counts.put(set, head.count());
    }
    return counts;
  }

  /** The head after the first {@code signedCount} records (fewer when the set is truncated). */
  private static SetHead walk(
      CheckpointStore store, String taskId, String runId, RecordSet set, long signedCount) {
    SetHead head = SetHead.EMPTY;
    while (head.count() < signedCount) {
      int limit = (int) Math.min(PAGE, signedCount - head.count());
      List<StoredRecord> page = store.records(taskId, runId, set, head.count() + 1, limit);
      if (page.isEmpty()) {
        return head;
      }
      for (StoredRecord r : page) {
        long seq = head.count() + 1;
        if (r.sequence() != seq) {
          throw RatchetException.checkpoint(
              set.wireName() + ": sequence " + r.sequence() + " found where " + seq + " belongs");
        }
        String link = RecordChain.next(head.head(), set, seq, r.key(), r.body());
        if (!link.equals(r.chain())) {
          throw RatchetException.checkpoint(
              set.wireName() + ": the chain breaks at sequence " + seq + " (record altered)");
        }
        head = new SetHead(seq, link);
      }
    }
    return head;
  }
}
