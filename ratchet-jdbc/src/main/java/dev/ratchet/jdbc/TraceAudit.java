package dev.ratchet.jdbc;

import dev.ratchet.jdbc.AuditReport.Finding;
import dev.ratchet.jdbc.AuditReport.Kind;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.RecordChain;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * The trace as an audit log: walks a set's records in sequence order through any {@link
 * CheckpointStore}, recomputes every link of the hash chain ({@link RecordChain}) and compares
 * where the chain ends with the count and head a verified checkpoint signs.
 *
 * <p>The chain alone is unkeyed, so someone who can write the database can rebuild it after an
 * edit; the signed head is what makes that visible ({@link Kind#HEAD_MISMATCH}). Deleting the
 * newest events ({@link Kind#TRUNCATED}) or appending forged ones with correct links ({@link
 * Kind#APPENDED}) is caught by the signed count. A record that fails its link is classified as
 * {@link Kind#REORDERED} when it is valid at another position within {@value #REORDER_WINDOW}
 * records, else as {@link Kind#EDITED}; either way the audit fails.
 */
public final class TraceAudit {
  static final int PAGE = 1000;
  static final int REORDER_WINDOW = 16;
  private static final int MAX_CLASSIFIED = 100;

  private TraceAudit() {}

  /** Audits the run's trace against the signed trace count and head. */
  public static AuditReport verify(
      CheckpointStore store, String taskId, String runId, SetHead signedTrace) {
    return verify(store, taskId, runId, RecordSet.TRACE, signedTrace);
  }

  /** Audits one growing set of the run against its signed count and head. */
  public static AuditReport verify(
      CheckpointStore store, String taskId, String runId, RecordSet set, SetHead signed) {
    Walk walk = new Walk(set, signed);
    long from = 1;
    while (true) {
      List<StoredRecord> page = store.records(taskId, runId, set, from, PAGE);
      if (page.isEmpty()) {
        break;
      }
      walk.page(page);
      from = page.get(page.size() - 1).sequence() + 1;
    }
    return walk.finish();
  }

  /** The state of one walk: where the chain stands and what was found so far. */
  private static final class Walk {
    private final RecordSet set;
    private final SetHead signed;
    private final List<Finding> findings = new ArrayList<>();
    private final List<StoredRecord> window = new ArrayList<>();
    private long expected = 1;
    private String previous = SetHead.GENESIS;
    private String chainAtSigned;
    private long last;
    private boolean linksBroken;
    private int classified;

    Walk(RecordSet set, SetHead signed) {
      this.set = set;
      this.signed = signed;
      this.chainAtSigned = signed.count() == 0 ? SetHead.GENESIS : null;
    }

    void page(List<StoredRecord> page) {
      // Keep the tail of the previous page so a reorder across a page boundary is still found.
      List<StoredRecord> context = new ArrayList<>(window);
      context.addAll(page);
      for (StoredRecord r : page) {
        step(r, context);
      }
      window.clear();
      window.addAll(context.subList(Math.max(0, context.size() - REORDER_WINDOW), context.size()));
    }

    private void step(StoredRecord r, List<StoredRecord> context) {
      if (r.sequence() > expected) {
        findings.add(
            new Finding(
                Kind.MISSING,
                expected,
                (r.sequence() - expected) + " record(s) missing before #" + r.sequence()));
        linksBroken = true; // the record after a gap cannot link; the gap is the finding
      } else {
        String link = RecordChain.next(previous, set, r.sequence(), r.key(), r.body());
        if (!link.equals(r.chain())) {
          linksBroken = true;
          if (!followsAMovedRecord(r, context)) {
            findings.add(classify(r, context));
          }
        }
      }
      previous = r.chain();
      expected = r.sequence() + 1;
      last = r.sequence();
      if (r.sequence() == signed.count()) {
        chainAtSigned = r.chain();
      }
    }

    /**
     * Whether {@code r} is in its own place and only its predecessor was moved away (the record
     * after a swapped pair): the move is already reported, {@code r} itself is intact.
     */
    private boolean followsAMovedRecord(StoredRecord r, List<StoredRecord> context) {
      int at = context.indexOf(r);
      for (int i = Math.max(0, at - REORDER_WINDOW); i < at; i++) {
        StoredRecord p = context.get(i);
        if (RecordChain.next(p.chain(), set, r.sequence(), r.key(), r.body()).equals(r.chain())) {
          return has(Kind.REORDERED);
        }
      }
      return false;
    }

    private boolean has(Kind kind) {
      return findings.stream().anyMatch(f -> f.kind() == kind);
    }

    private Finding classify(StoredRecord r, List<StoredRecord> context) {
      if (classified++ < MAX_CLASSIFIED) {
        int at = context.indexOf(r);
        int lo = Math.max(0, at - REORDER_WINDOW);
        int hi = Math.min(context.size() - 1, at + REORDER_WINDOW);
        for (int prev = lo - 1; prev <= hi; prev++) {
          String before = prev < 0 ? SetHead.GENESIS : context.get(prev).chain();
          for (int q = lo; q <= hi; q++) {
            long sequence = context.get(q).sequence();
            if (sequence != r.sequence()
                && RecordChain.next(before, set, sequence, r.key(), r.body()).equals(r.chain())) {
              return new Finding(
                  Kind.REORDERED,
                  r.sequence(),
                  "record key '" + r.key() + "' belongs at #" + sequence);
            }
          }
        }
      }
      return new Finding(Kind.EDITED, r.sequence(), "record does not continue the chain before it");
    }

    AuditReport finish() {
      SetHead stored = last == 0 ? SetHead.EMPTY : new SetHead(last, previous);
      if (last < signed.count()) {
        findings.add(
            new Finding(
                Kind.TRUNCATED,
                last + 1,
                "store holds " + last + " record(s), the checkpoint signs " + signed.count()));
      } else if (last > signed.count()) {
        findings.add(
            new Finding(
                Kind.APPENDED,
                signed.count() + 1,
                (last - signed.count()) + " record(s) beyond the signed count " + signed.count()));
      }
      if (!linksBroken && last >= signed.count() && !signed.head().equals(chainAtSigned)) {
        findings.add(
            new Finding(
                Kind.HEAD_MISMATCH,
                signed.count(),
                "the chain is consistent but does not end at the signed head"));
      }
      return new AuditReport(set, stored, signed, findings);
    }
  }
}
