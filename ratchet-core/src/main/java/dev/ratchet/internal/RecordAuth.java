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
        RecordMac.sealText(ring, taskId, runId, set, sequence, key, body);
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
      CheckpointStore store,
      KeyRing ring,
      RunState s,
      RecordSet set,
      String key,
      Optional<StoredRecord> found) {
    if (found.isPresent()) {
      StoredRecord r = found.get();
      if (r.set() != set || !r.key().equals(key)) {
        throw RatchetException.checkpoint(
            "the store answered a lookup of " + set.wireName() + " '" + key + "' with another key");
      }
      try {
        RecordMac.open(ring, s.taskId(), s.runId(), r);
      } catch (RatchetException macFailed) {
        // ADR 0032: a record sealed under a key since removed from the ring (or revoked), or
        // written before record MACs, is still authentic when the chain from it reaches the
        // signed head; a forged or edited one does not, and keeps the MAC's refusal.
        if (r.sequence() > s.head(set).count() || !coveredBySignedHead(store, s, r)) {
          throw macFailed;
        }
      }
    }
    return found;
  }

  /**
   * True when the chain recomputed from {@code r} (with its predecessor's stored link) through
   * every later record reaches the signed count and head: then {@code r}'s body is the one the
   * signed checkpoint covers. Reads the records after {@code r}, so its cost is the distance to the
   * tip; the acting path pays it only for a record whose MAC no ring key verifies.
   */
  static boolean coveredBySignedHead(CheckpointStore store, RunState s, StoredRecord r) {
    RecordSet set = r.set();
    SetHead signed = s.head(set);
    String link = SetHead.GENESIS;
    if (r.sequence() > 1) {
      List<StoredRecord> before = store.records(s.taskId(), s.runId(), set, r.sequence() - 1, 1);
      if (before.size() != 1 || before.get(0).sequence() != r.sequence() - 1) {
        return false;
      }
      link = before.get(0).chain();
    }
    link = RecordChain.next(link, set, r.sequence(), r.key(), r.body());
    long at = r.sequence();
    while (at < signed.count()) {
      int page = (int) Math.min(1_000, signed.count() - at);
      List<StoredRecord> next = store.records(s.taskId(), s.runId(), set, at + 1, page);
      if (next.isEmpty()) {
        return false;
      }
      for (StoredRecord n : next) {
        if (n.sequence() != at + 1) {
          return false;
        }
        link = RecordChain.next(link, set, n.sequence(), n.key(), n.body());
        at++;
      }
    }
    return at == signed.count() && link.equals(signed.head());
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
        out.add(openOrChained(ring, s, r));
        at = RecordChain.advance(at, r);
      }
    }
    if (at.count() != signed.count() || !at.head().equals(signed.head())) {
      throw RatchetException.checkpoint(
          "the stored " + set.wireName() + " do not end at the signed count and head");
    }
    return out;
  }

  /**
   * A record inside a whole-chain walk: its MAC is checked when a ring key verifies it; a record
   * under a removed or revoked key (ADR 0032) is stripped and left to the walk, which refuses the
   * set unless the chain through it ends at the signed head.
   */
  private static JsonObject openOrChained(KeyRing ring, RunState s, StoredRecord r) {
    try {
      return RecordMac.open(ring, s.taskId(), s.runId(), r);
    } catch (RatchetException macFailed) {
      return RecordMac.strip(r);
    }
  }
}
