package dev.ratchet.internal;

import dev.ratchet.error.RatchetException;
import dev.ratchet.model.Cause;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import java.util.Optional;

/** The decisions that led to proposals (D25): a model response or an MCP request. */
final class Causes {
  private Causes() {}

  /**
   * Commits the decision behind a proposal with it: appended once, with its cost; the same cause
   * again changes nothing; the same id with other content is refused before anything.
   */
  static void record(Engine engine, Engine.Op op, Cause cause) {
    Optional<StoredRecord> earlier = engine.find(RecordSet.CAUSES, cause.causeId());
    if (earlier.isPresent()) {
      Cause committed =
          Cause.fromJson(RecordAuth.body(earlier.get()), "causes[" + cause.causeId() + "]");
      if (!committed.equals(cause)) {
        throw RatchetException.contract(
            "cause.cause_id: '"
                + cause.causeId()
                + "' was already committed with another kind, body or cost");
      }
    } else if (!op.j.containsKey(RecordSet.CAUSES, cause.causeId())) {
      op.j.append(RecordSet.CAUSES, cause.causeId(), cause.toJson());
      op.b.usage = op.b.usage.withCost(op.b.usage.cost() + cause.costUnits());
    }
    op.causeId = cause.causeId();
  }
}
