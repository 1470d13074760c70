package dev.ratchet.internal;

import dev.ratchet.json.JsonObject;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.store.RecordChain;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRecord;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The records one operation appends to the growing sets, chained onto the heads the checkpoint
 * signed. It becomes part of exactly one commit, so records and the heads that cover them are
 * written atomically.
 */
final class Journal {
  private final EnumMap<RecordSet, SetHead> heads;
  private final List<StoredRecord> records = new ArrayList<>();
  private final Set<String> keys = new HashSet<>();
  private final List<TraceEvent> events = new ArrayList<>();
  private final Sealer sealer;

  /**
   * Adds the record MAC to a body before it is chained ({@link RecordAuth}, SPEC D20); returns the
   * canonical text of the sealed body, which is what is stored and chained.
   */
  @FunctionalInterface
  interface Sealer {
    String seal(RecordSet set, long sequence, String key, JsonObject body);
  }

  Journal(Map<RecordSet, SetHead> signedHeads, Sealer sealer) {
    this.heads = new EnumMap<>(signedHeads);
    this.sealer = sealer;
  }

  /** An independent copy: an operation begun from a carried journal may be abandoned (D22). */
  Journal copy() {
    Journal c = new Journal(heads, sealer);
    c.records.addAll(records);
    c.keys.addAll(keys);
    c.events.addAll(events);
    return c;
  }

  StoredRecord append(RecordSet set, String key, JsonObject body) {
    String sealed = sealer.seal(set, heads.get(set).count() + 1, key, body);
    StoredRecord r = RecordChain.append(heads.get(set), set, key, sealed);
    heads.put(set, RecordChain.advance(heads.get(set), r));
    records.add(r);
    keys.add(set.wireName() + "\u0000" + key);
    return r;
  }

  /** Appends the next trace event and returns it (its sequence follows the set's count). */
  TraceEvent trace(
      long atMs,
      long proposals,
      String actionId,
      String kind,
      dev.ratchet.model.TraceOutcome outcome,
      long revision,
      JsonObject detail) {
    long seq = heads.get(RecordSet.TRACE).count() + 1;
    TraceEvent e = new TraceEvent(seq, atMs, proposals, actionId, kind, outcome, revision, detail);
    append(RecordSet.TRACE, Long.toString(seq), e.toJson());
    events.add(e);
    return e;
  }

  /** The trace events this journal appended, in order. */
  List<TraceEvent> events() {
    return List.copyOf(events);
  }

  boolean containsKey(RecordSet set, String key) {
    return keys.contains(set.wireName() + "\u0000" + key);
  }

  Map<RecordSet, SetHead> heads() {
    return new EnumMap<>(heads);
  }

  List<StoredRecord> records() {
    return List.copyOf(records);
  }

  boolean isEmpty() {
    return records.isEmpty();
  }
}
