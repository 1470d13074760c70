package dev.ratchet.outcome;

import dev.ratchet.adapter.Receipt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.ReviewCase;
import java.util.Objects;

/**
 * The expected outcome of executing or reconciling an action (SPEC D14): executed now, replayed
 * from an earlier receipt, reconciled after a crash from the adapter's receipt, or frozen into
 * {@code needs_review} / awaiting approval with all evidence kept.
 *
 * @param receipt the adapter receipt behind a write, else null
 * @param review the open review case when {@code FROZEN} by a conflict or drift, else null
 */
public record StepOutcome(
    Kind kind, String actionId, JsonObject result, Receipt receipt, ReviewCase review) {
  public enum Kind {
    EXECUTED,
    REPLAYED,
    RECONCILED,
    FROZEN
  }

  public StepOutcome {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(result, "result");
  }
}
