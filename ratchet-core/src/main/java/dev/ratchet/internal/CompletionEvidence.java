package dev.ratchet.internal;

import dev.ratchet.adapter.ActionClass;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonBool;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.model.RunState;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.model.VerifiedEvidence;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.RecordChain;
import dev.ratchet.store.RecordMac;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRecord;
import java.util.List;

/**
 * Completion is bound to a passing verification (SPEC §10), and the signature alone does not prove
 * it: an insider with the checkpoint key could sign a {@code verified} field (or a completed run)
 * that no verification ever produced. So whenever a state carries verifier evidence, the trace
 * event it names must exist, be the execution of a {@code VERIFY} action, have passed, and record
 * exactly the revision and state fingerprint the evidence binds. Anything else is {@code
 * CHECKPOINT}. Checked at recovery (resume, re-sign, verify) and again before {@code finish}.
 */
final class CompletionEvidence {
  private CompletionEvidence() {}

  /**
   * Checks {@code v}, {@code s}'s verifier evidence if any, against the trace event it names. The
   * event is proven by the signed trace head (D20): the records from it to the tip must recompute
   * to that head, so neither an edit nor a record sealed under a since-retired key can pass or stop
   * it. A verification is normally one of the last events, so this reads a few records.
   */
  static void check(RunContext ctx, RunState s, VerifiedEvidence v) {
    if (v == null) {
      return;
    }
    String where = "verifier evidence (trace event " + v.traceSequence() + ")";
    StoredRecord record = proven(ctx.store(), s, v.traceSequence(), where);
    TraceEvent e;
    try {
      e = TraceEvent.fromJson(RecordMac.strip(record), "trace");
    } catch (RatchetException ex) {
      throw refused(where + " is not a trace event: " + ex.getMessage());
    }
    if (e.sequence() != v.traceSequence()) {
      throw refused(where + " has sequence " + e.sequence());
    }
    if (e.kind() == null || ActionRules.classOf(ctx, e.kind()) != ActionClass.VERIFY) {
      throw refused(where + " is not a verification (kind " + e.kind() + ")");
    }
    if (e.outcome() != dev.ratchet.model.TraceOutcome.EXECUTED) {
      throw refused(where + " is not an executed verification (" + e.outcome().wireName() + ")");
    }
    JsonObject d = e.detail();
    if (!(d.get("passed").orElse(null) instanceof JsonBool passed) || !passed.value()) {
      throw refused(where + " did not pass");
    }
    if (!matches(d, "revision", new JsonInt(v.revision()))
        || !matches(d, "state_fingerprint", new JsonString(v.stateFingerprint()))) {
      throw refused(where + " verified another environment state than the evidence binds");
    }
  }

  private static boolean matches(JsonObject detail, String field, JsonValue expected) {
    return detail.get(field).map(expected::equals).orElse(false);
  }

  private static RatchetException refused(String why) {
    return RatchetException.checkpoint("invalid run state: " + why);
  }

  /** {@link #check} of {@code s}'s own evidence. */
  static void check(RunContext ctx, RunState s) {
    check(ctx, s, s.verified());
  }

  /** The trace record at {@code sequence}, proven by the chain from it to the signed head. */
  private static StoredRecord proven(
      CheckpointStore store, RunState s, long sequence, String where) {
    SetHead head = s.head(RecordSet.TRACE);
    if (sequence < 1 || sequence > head.count()) {
      throw refused(where + " is missing from the trace");
    }
    long from = Math.max(1, sequence - 1);
    String link = SetHead.GENESIS;
    StoredRecord target = null;
    long next = from;
    while (next <= head.count()) {
      int page = (int) Math.min(1_000, head.count() - next + 1);
      List<StoredRecord> rs = store.records(s.taskId(), s.runId(), RecordSet.TRACE, next, page);
      if (rs.isEmpty()) {
        break;
      }
      for (StoredRecord r : rs) {
        if (r.sequence() != next) {
          throw refused(where + ": the stored trace lacks record #" + next);
        }
        if (r.sequence() == from && from < sequence) {
          link = r.chain(); // the predecessor's stored link; the head proves it below
        } else {
          link = RecordChain.next(link, RecordSet.TRACE, r.sequence(), r.key(), r.body());
        }
        if (r.sequence() == sequence) {
          target = r;
        }
        next++;
      }
    }
    if (target == null || next != head.count() + 1 || !link.equals(head.head())) {
      throw refused(where + " is not the event the signed trace head covers");
    }
    return target;
  }
}
