package dev.ratchet.internal;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.RunState;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.RecordChain;
import dev.ratchet.store.RecordMac;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Authenticated reads on the acting path (SPEC D20, docs/adr/0030-authenticated-reads.md). Every
 * record the runtime reads is checked against what the signed checkpoint and its key ring can
 * verify, at a cost that does not grow with the set: the tip of each set (its last two records)
 * against the signed head at recovery, and each record read by key against its MAC.
 */
final class RecordAuth {
  private RecordAuth() {}

  /** Seals records appended to a run's sets with their MAC under the ring's active key. */
  static Journal.Sealer sealer(KeyRing ring, String taskId, String runId) {
    return (set, sequence, key, body) ->
        RecordMac.seal(ring, taskId, runId, set, sequence, key, body);
  }

  /**
   * Authenticates the tip of every non-empty set of {@code s}: the last record must exist at the
   * signed count and recompute to the signed head from its predecessor's stored link (so its body
   * is the one the head covers, whichever key sealed it); the predecessor must exist at its
   * sequence. One indexed range read per set; throws {@code CHECKPOINT}.
   */
  static void verifyTips(CheckpointStore store, RunState s) {
    for (RecordSet set : RecordSet.values()) {
      SetHead signed = s.head(set);
      if (signed.count() == 0) {
        continue;
      }
      long from = Math.max(1, signed.count() - 1);
      List<StoredRecord> tail =
          store.records(s.taskId(), s.runId(), set, from, (int) (signed.count() - from + 1));
      StoredRecord tip = tail.isEmpty() ? null : tail.get(tail.size() - 1);
      if (tip == null
          || tip.sequence() != signed.count()
          || tail.size() != signed.count() - from + 1
          || tail.get(0).sequence() != from) {
        throw RatchetException.checkpoint(
            "the stored " + set.wireName() + " lack records the signed count covers");
      }
      String previous = tail.size() == 2 ? tail.get(0).chain() : SetHead.GENESIS;
      String link = RecordChain.next(previous, set, tip.sequence(), tip.key(), tip.body());
      if (!link.equals(signed.head())) {
        throw RatchetException.checkpoint(
            "the last stored "
                + set.wireName()
                + " record (#"
                + tip.sequence()
                + ") is not the one the signed head covers");
      }
    }
  }

  /**
   * A record read by key, authenticated: its MAC must verify for this run, set, key and its stored
   * sequence. Returns the record as stored (the caller checks its sequence against the count).
   */
  static Optional<StoredRecord> authenticated(
      KeyRing ring, RunState s, RecordSet set, String key, Optional<StoredRecord> found) {
    if (found.isPresent()) {
      StoredRecord r = found.get();
      if (r.set() != set || !r.key().equals(key)) {
        throw RatchetException.checkpoint(
            "the store answered a lookup of " + set.wireName() + " '" + key + "' with another key");
      }
      RecordMac.open(ring, s.taskId(), s.runId(), r);
    }
    return found;
  }

  /** The body of a record already authenticated, without its MAC. */
  static JsonObject body(StoredRecord r) {
    return RecordMac.strip(r);
  }

  /**
   * Every record of a set, in order, each MAC checked and the chain recomputed from genesis to the
   * signed count and head: a deleted, inserted, reordered or edited record is refused with {@code
   * CHECKPOINT}. Returns the bodies without their MACs.
   */
  static List<JsonObject> readAll(CheckpointStore store, KeyRing ring, RunState s, RecordSet set) {
    SetHead signed = s.head(set);
    List<JsonObject> out = new ArrayList<>();
    SetHead at = SetHead.EMPTY;
    while (at.count() < signed.count()) {
      int page = (int) Math.min(1_000, signed.count() - at.count());
      List<StoredRecord> records = store.records(s.taskId(), s.runId(), set, at.count() + 1, page);
      if (records.isEmpty()) {
        break;
      }
      for (StoredRecord r : records) {
        if (r.sequence() != at.count() + 1
            || !RecordChain.next(at.head(), set, r.sequence(), r.key(), r.body())
                .equals(r.chain())) {
          throw RatchetException.checkpoint(
              "the stored " + set.wireName() + " are not the chain the signed head covers");
        }
        out.add(RecordMac.open(ring, s.taskId(), s.runId(), r));
        at = RecordChain.advance(at, r);
      }
    }
    if (at.count() != signed.count() || !at.head().equals(signed.head())) {
      throw RatchetException.checkpoint(
          "the stored " + set.wireName() + " do not end at the signed count and head");
    }
    return out;
  }
}
