package dev.ratchet.store;

import dev.ratchet.json.Text;
import java.util.Objects;

/**
 * A signed operator decision waiting for the lease holder (SPEC D12): an approval, a refreshed
 * approval, a reviewer decision or an operator's cancel, pause or unpause. Operators only deliver;
 * the worker that holds the lease consumes the item by committing its nonce into {@link
 * RecordSet#NONCES}.
 */
public record InboxItem(String nonce, Kind kind, String envelope) {
  public enum Kind {
    APPROVAL,
    REVIEW_DECISION,
    /** An operator's signed cancel (issue 17). */
    CANCEL,
    /** An operator's signed pause (D37). */
    PAUSE,
    /** An operator's signed unpause of a paused run (D37). */
    UNPAUSE,
    /** An operator's signed migration of a run to a new task version (D37). */
    MIGRATE
  }

  public InboxItem {
    Text.require("nonce", nonce);
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(envelope, "envelope");
  }
}
