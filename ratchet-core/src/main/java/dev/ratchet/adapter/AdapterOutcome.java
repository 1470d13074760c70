package dev.ratchet.adapter;

import java.util.Objects;

/**
 * What {@link EnvironmentAdapter#execute} returns: the write was performed now, an earlier
 * same-intent write under the same key was found, or the key is bound to a different intent (the
 * receipt returned is the conflicting one; nothing was changed).
 */
public record AdapterOutcome(Kind kind, Receipt receipt) {
  public enum Kind {
    EXECUTED,
    REPLAYED,
    CONFLICT
  }

  public AdapterOutcome {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(receipt, "receipt");
  }

  public static AdapterOutcome executed(Receipt r) {
    return new AdapterOutcome(Kind.EXECUTED, r);
  }

  public static AdapterOutcome replayed(Receipt r) {
    return new AdapterOutcome(Kind.REPLAYED, r);
  }

  public static AdapterOutcome conflict(Receipt r) {
    return new AdapterOutcome(Kind.CONFLICT, r);
  }
}
