package dev.ratchet.outcome;

import dev.ratchet.model.Action;
import java.util.Objects;

/**
 * What {@link dev.ratchet.Run#propose} accepted: a {@code READY} action to execute now, a {@code
 * PENDING} write whose intent (with its minted key) is durable, or a {@code REPLAYED} write whose
 * earlier receipt was reused without any side effect.
 */
public record Proposal(Kind kind, Action action, StepOutcome replay) {
  public enum Kind {
    READY,
    PENDING,
    REPLAYED
  }

  public Proposal {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(action, "action");
  }
}
