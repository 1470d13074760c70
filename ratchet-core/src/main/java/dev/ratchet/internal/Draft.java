package dev.ratchet.internal;

import dev.ratchet.adapter.Observation;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.model.Phase;
import dev.ratchet.model.PhaseTransitions.Transition;
import dev.ratchet.model.ReviewCase;
import dev.ratchet.model.RunState;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.model.Usage;
import dev.ratchet.model.VerifiedEvidence;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.SetHead;
import java.util.EnumMap;

/**
 * The mutable copy of the run state one operation works on, frozen again by {@link #build()}. It
 * lives here, package-private, so the exported {@code model} package has no mutable fields; the
 * runtime changes state only through these copies.
 */
final class Draft {
  private final RunState base;
  private Phase phase;

  /** The task a signed migration moves the run to (D37); null: the task it runs under. */
  TaskSpec task;

  String stopReason;
  long cursor;
  Usage usage;
  Observation binding;
  VerifiedEvidence verified;
  PendingIntent pending;
  ReviewCase review;
  final EnumMap<RecordSet, SetHead> sets;

  Draft(RunState s) {
    base = s;
    phase = s.phase();
    stopReason = s.stopReason();
    cursor = s.cursor();
    usage = s.usage();
    binding = s.binding();
    verified = s.verified();
    pending = s.pending();
    review = s.review();
    sets = new EnumMap<>(s.sets());
  }

  Phase phase() {
    return phase;
  }

  /** Takes a row of the phase table: the only way a draft changes phase. */
  void enter(Transition t) {
    if (phase != t.from()) {
      throw new RatchetException(
          ErrorCode.INTERNAL,
          "transition "
              + t
              + " starts in "
              + t.from().wireName()
              + ", the run is "
              + phase.wireName());
    }
    phase = t.to();
  }

  RunState build() {
    return new RunState(
        base.runId(),
        base.taskId(),
        task == null ? base.taskVersion() : task.taskVersion(),
        task == null ? base.taskFingerprint() : task.fingerprint(),
        task == null ? base.policyId() : task.policyId(),
        task == null ? base.policyVersion() : task.policyVersion(),
        phase,
        stopReason,
        cursor,
        usage,
        binding,
        verified,
        pending,
        review,
        sets,
        base.keySalt());
  }
}
