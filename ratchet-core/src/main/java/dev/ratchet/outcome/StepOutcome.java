package dev.ratchet.outcome;

import dev.ratchet.adapter.Receipt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.ReviewCase;
import java.util.List;
import java.util.Objects;

/**
 * What a step came to, as a value (SPEC D14, D32): done (executed now, with the adapter's receipt
 * for a write), replayed from an earlier receipt, reconciled after a crash from the adapter's
 * receipt, frozen into {@code needs_review} with all evidence kept, awaiting a signed approval, or
 * rejected (an approver's rejection or a withdrawal dropped the write before it ran). Waiting is
 * never an exception; refusals of the caller's request and broken infrastructure stay {@link
 * dev.ratchet.error.RatchetException}s. Switch on {@link #kind()} or on the sealed records.
 */
public sealed interface StepOutcome
    permits StepOutcome.Done,
        StepOutcome.Frozen,
        StepOutcome.AwaitingApproval,
        StepOutcome.Rejected {

  /** Every way a step or an action ends up ({@link ActionOutcome} uses the same kinds). */
  enum Kind {
    /** Done now; a write's receipt is {@link #receipt()}. */
    EXECUTED,
    /** An earlier receipt for the same intent was reused: nothing ran again. */
    REPLAYED,
    /** Recovery or a retry found the write's receipt at the adapter and completed it. */
    RECONCILED,
    /** The run froze in {@code needs_review}: a reviewer decides. */
    FROZEN,
    /** A write waits for a valid signed approval; nothing was refused and nothing ran. */
    AWAITING_APPROVAL,
    /** The write was dropped before it ran (an approver's rejection, a withdrawal). */
    REJECTED,
    /** Proposed and accepted; not yet executed (only an {@link ActionOutcome} says this). */
    PENDING,
    /** Refused with a stable code (only an {@link ActionOutcome} says this; a step throws). */
    REFUSED
  }

  Kind kind();

  /** The action the step was about (null for a run-level step, e.g. a consumed cancel). */
  String actionId();

  /** The result, or for a frozen, waiting or rejected step its evidence. */
  JsonObject result();

  /** The adapter's receipt behind a write, else null. */
  default Receipt receipt() {
    return null;
  }

  /** The open review case of a frozen step, else null. */
  default ReviewCase review() {
    return null;
  }

  /**
   * Done: {@code kind} is {@link Kind#EXECUTED}, {@link Kind#REPLAYED} or {@link Kind#RECONCILED}.
   */
  record Done(Kind kind, String actionId, JsonObject result, Receipt receipt)
      implements StepOutcome {
    public Done {
      if (kind != Kind.EXECUTED && kind != Kind.REPLAYED && kind != Kind.RECONCILED) {
        throw new IllegalArgumentException("a done step is executed, replayed or reconciled");
      }
      Objects.requireNonNull(result, "result");
    }
  }

  /** Frozen in {@code needs_review} by a conflict, drift, an uncertain effect or a cancel. */
  record Frozen(String actionId, JsonObject result, Receipt receipt, ReviewCase review)
      implements StepOutcome {
    public Frozen {
      Objects.requireNonNull(result, "result");
    }

    @Override
    public Kind kind() {
      return Kind.FROZEN;
    }
  }

  /**
   * The pending write {@code actionId} waits for its approval; {@code why} says what the inbox held
   * (each refused item with its reason), {@code refusedReasons} their wire names.
   */
  record AwaitingApproval(String actionId, String why, List<String> refusedReasons)
      implements StepOutcome {
    public AwaitingApproval {
      Objects.requireNonNull(actionId, "actionId");
      Objects.requireNonNull(why, "why");
      refusedReasons = List.copyOf(refusedReasons);
    }

    @Override
    public Kind kind() {
      return Kind.AWAITING_APPROVAL;
    }

    @Override
    public JsonObject result() {
      return JsonObject.builder().put("awaiting", "approval").put("why", why).build();
    }

    /** Whether an authentic, exactly bound approval was refused only because it expired. */
    public boolean expired() {
      return refusedReasons.contains(dev.ratchet.error.DecisionRefused.Reason.EXPIRED.wireName());
    }
  }

  /**
   * The write {@code actionId} was dropped before it ran ({@code intent_rejected} by an approver,
   * or {@code intent_withdrawn}); {@code detail} is the trace detail (approver, reason, key).
   */
  record Rejected(String actionId, String why, JsonObject detail) implements StepOutcome {
    public Rejected {
      Objects.requireNonNull(actionId, "actionId");
      Objects.requireNonNull(why, "why");
      Objects.requireNonNull(detail, "detail");
    }

    @Override
    public Kind kind() {
      return Kind.REJECTED;
    }

    @Override
    public JsonObject result() {
      return detail;
    }
  }
}
