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
import dev.ratchet.store.RecordMac;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import java.util.Optional;
import java.util.function.Function;

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
   * Checks {@code s}'s verifier evidence, if any, against the trace event it names; {@code trace}
   * looks a trace record up by its key (the sequence number as text).
   */
  static void check(
      RunContext ctx,
      RunState s,
      VerifiedEvidence v,
      Function<String, Optional<StoredRecord>> trace) {
    if (v == null) {
      return;
    }
    String where = "verifier evidence (trace event " + v.traceSequence() + ")";
    StoredRecord record =
        trace
            .apply(Long.toString(v.traceSequence()))
            .orElseThrow(() -> refused(where + " is missing from the trace"));
    TraceEvent e;
    try {
      // Authenticated like every record an acting path reads (D20): a forged event is refused.
      e = TraceEvent.fromJson(RecordMac.open(ctx.keys(), s.taskId(), s.runId(), record), "trace");
    } catch (RatchetException ex) {
      throw refused(where + " is not a trace event: " + ex.getMessage());
    }
    if (e.sequence() != v.traceSequence()) {
      throw refused(where + " has sequence " + e.sequence());
    }
    if (e.kind() == null || ActionRules.classOf(ctx, e.kind()) != ActionClass.VERIFY) {
      throw refused(where + " is not a verification (kind " + e.kind() + ")");
    }
    if (!"executed".equals(e.outcome())) {
      throw refused(where + " is not an executed verification (" + e.outcome() + ")");
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

  /** {@link #check} of {@code s}'s evidence with lookups through the run's store. */
  static void check(RunContext ctx, RunState s) {
    check(
        ctx, s, s.verified(), key -> ctx.store().find(s.taskId(), s.runId(), RecordSet.TRACE, key));
  }
}
