package dev.ratchet.internal;

import dev.ratchet.adapter.Receipt;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.Action;
import dev.ratchet.model.TraceOutcome;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import java.util.Optional;

/**
 * A forked run's inherited receipts (SPEC D37, ADR 0130): a write whose (action id, intent digest)
 * equals a receipted write of the source is replayed from that receipt and never sent. Keys are
 * bound to their run (ADR 0031), so the match goes through the run's authenticated {@code
 * inherited} set, never a key lookup at the service. The use mark rides on the proposal's commit
 * (each receipt used at most once); the same action with another intent gets a new key.
 */
final class Inherited {
  static final String RECEIPT = "receipt:";
  static final String USED = "used:";

  private Inherited() {}

  /** The replay of {@code action} from an inherited receipt, committed; null when none applies. */
  static Proposal replay(Engine engine, Engine.Op op, Action action, String digest) {
    if (engine.state().head(RecordSet.INHERITED).count() == 0) {
      return null; // not a fork: no read (D22)
    }
    Optional<StoredRecord> found = engine.find(RecordSet.INHERITED, RECEIPT + action.actionId());
    if (found.isEmpty()) {
      return null;
    }
    JsonObject body = RecordAuth.body(found.get());
    if (!(body.get("intent_digest").orElse(null) instanceof JsonString d)
        || !d.value().equals(digest)) {
      return null; // the same action with another intent: a new intent, a new key
    }
    String id = action.actionId();
    if (engine.has(op, RecordSet.INHERITED, USED + id)) {
      throw new RatchetException(
          ErrorCode.IDEMPOTENCY_CONFLICT, "the inherited receipt of '" + id + "' was already used");
    }
    Receipt r =
        Receipt.fromJson(body.get("receipt").orElseThrow(), "inherited[" + id + "].receipt");
    String source = ((JsonString) body.get("source_run_id").orElseThrow()).value();
    op.j.append(
        RecordSet.INHERITED,
        USED + id,
        JsonObject.builder().put("action_id", id).put("receipt_id", r.receiptId()).build());
    op.b.cursor += 1;
    op.trace(
        id,
        action.kind(),
        TraceOutcome.REPLAYED,
        Outcomes.receiptDetail(r, true).with("inherited_from", new JsonString(source)));
    engine.budgetClose(op);
    engine.ctx().crash().reached(dev.ratchet.seam.CrashPoint.INHERITED_REPLAY_BEFORE_COMMIT);
    engine.commit(op);
    StepOutcome out = new StepOutcome.Done(StepOutcome.Kind.REPLAYED, id, r.result(), r);
    return new Proposal(Proposal.Kind.REPLAYED, action, out);
  }
}
