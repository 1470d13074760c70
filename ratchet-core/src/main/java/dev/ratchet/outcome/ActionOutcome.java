package dev.ratchet.outcome;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.TraceOutcome;
import java.util.Objects;

/**
 * What became of one action, as {@link dev.ratchet.Run#outcomeOf} answers it from the run's
 * authenticated trace (SPEC D32: no caller scans the trace to learn an outcome).
 *
 * @param kind what it came to, in a step's terms ({@link StepOutcome.Kind#PENDING} while accepted
 *     and not yet executed, {@link StepOutcome.Kind#REFUSED} with {@link #code()})
 * @param traced the last deciding trace outcome recorded for it
 * @param detail that event's detail
 * @param idempotencyKey the key the run minted when it accepted the write, else null
 * @param intentDigest the accepted write's intent digest, else null
 * @param code the stable code of a refusal, else null
 */
public record ActionOutcome(
    String actionId,
    StepOutcome.Kind kind,
    TraceOutcome traced,
    JsonObject detail,
    String idempotencyKey,
    String intentDigest,
    ErrorCode code) {

  public ActionOutcome {
    Objects.requireNonNull(actionId, "actionId");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(traced, "traced");
    Objects.requireNonNull(detail, "detail");
  }

  /** Whether the action's effect happened (executed, replayed or reconciled). */
  public boolean done() {
    return kind == StepOutcome.Kind.EXECUTED
        || kind == StepOutcome.Kind.REPLAYED
        || kind == StepOutcome.Kind.RECONCILED;
  }
}
