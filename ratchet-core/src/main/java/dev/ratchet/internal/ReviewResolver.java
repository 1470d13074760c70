package dev.ratchet.internal;

import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.error.DecisionRefused;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.DecisionBinding;
import dev.ratchet.model.Phase;
import dev.ratchet.model.PhaseTransitions.Transition;
import dev.ratchet.model.ReviewCase;
import dev.ratchet.model.ReviewDecision;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.model.TraceOutcome;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.RecordSet;
import java.util.Optional;

/**
 * Resolves an open review case with a signed reviewer decision from the inbox (SPEC §8, D12, D13;
 * reference-behaviour §2.3.8). The adapter's receipt is re-read and must be unchanged; every
 * refusal leaves the run frozen and unchanged. {@code replan} quarantines the old key, seals the
 * case and the decision into the trace and returns to running on a fresh observation; {@code abort}
 * ends the run failed with all evidence kept.
 */
final class ReviewResolver {
  private static final String BOUND = "is not bound to the frozen case";

  private final Engine engine;
  private final RunContext ctx;

  ReviewResolver(Engine engine) {
    this.engine = engine;
    this.ctx = engine.ctx();
  }

  StepOutcome resolve() {
    Engine.Op op = engine.begin();
    if (op.b.phase() != Phase.NEEDS_REVIEW || op.b.review == null) {
      throw RatchetException.contract("run is not frozen in needs_review: nothing to resolve");
    }
    Refusals refusals = new Refusals();
    for (InboxItem item : ctx.store().inbox(engine.state().taskId(), engine.state().runId())) {
      if (item.kind() != InboxItem.Kind.REVIEW_DECISION) {
        continue;
      }
      try {
        SignedEnvelope env = SignedEnvelope.fromJson(Json.parse(item.envelope()), "decision");
        ReviewDecision d = check(op, op.b.review, env, item.nonce());
        return apply(op, op.b.review, env, d);
      } catch (RatchetException e) {
        if (DecisionChecks.fatal(e)) {
          throw e;
        }
        refusals.add(item, e);
      }
    }
    RatchetException none = refusals.noneValid("reviewer decision for " + op.b.review.caseId());
    if (!refusals.isEmpty()) {
      ReviewCase c = op.b.review;
      op.trace(
          c.pending() == null ? null : c.pending().action().actionId(),
          c.pending() == null ? null : c.pending().action().kind(),
          TraceOutcome.REVIEW_DECISION_REJECTED,
          JsonObject.builder()
              .put("error_code", ErrorCode.APPROVAL.name())
              .put("case_id", c.caseId())
              .put(Refusals.FIELD, refusals.toJson())
              .build());
      engine.commit(op);
    }
    throw none;
  }

  private ReviewDecision check(Engine.Op op, ReviewCase c, SignedEnvelope env, String inboxNonce) {
    ReviewDecision d =
        DecisionChecks.authenticate(
            ctx, env, ReviewDecision.fromJson(env.payload(), "decision.payload"));
    DecisionBinding want = DecisionBinding.of(engine.state(), ctx.task(), c.pending());
    same(d.binding().runMismatch(want));
    same("nonce", d.nonce(), inboxNonce);
    if (engine.has(op, RecordSet.NONCES, d.nonce())) {
      throw new DecisionRefused(
          DecisionRefused.Reason.REPLAYED_NONCE,
          "reviewer nonce '" + d.nonce() + "' was already used");
    }
    same("case_id", d.caseId(), c.caseId());
    if (c.pending() != null && !c.pending().equals(op.b.pending)) {
      throw RatchetException.approval("the pending intent differs from the frozen case");
    }
    same(d.binding().intentMismatch(want, ReviewDecision.DIGEST_KEY));
    if (c.observedReceipt() != null) {
      engine.checkLease();
      Optional<Receipt> now = ctx.adapter().lookup(c.observedReceipt().idempotencyKey());
      if (now.isEmpty() || !now.get().fingerprint().equals(c.observedReceiptFingerprint())) {
        throw RatchetException.approval("the adapter's receipt drifted since the case was frozen");
      }
      same("observed_intent_digest", d.observedIntentDigest(), c.observedReceipt().intentDigest());
    } else {
      same("observed_intent_digest", d.observedIntentDigest(), null);
    }
    same(
        "observed_receipt_fingerprint",
        d.observedReceiptFingerprint(),
        c.observedReceiptFingerprint());
    Observation live = engine.observe();
    same("environment_instance_id", d.environmentInstanceId(), live.instanceId());
    if (d.environmentRevision() != live.revision()) {
      throw RatchetException.approval(
          "the environment changed after the decision was signed (revision "
              + live.revision()
              + ", decision bound to "
              + d.environmentRevision()
              + ")");
    }
    return d;
  }

  private StepOutcome apply(Engine.Op op, ReviewCase c, SignedEnvelope env, ReviewDecision d) {
    engine.consumeNonce(op, d.nonce(), "review_decision", env.fingerprint());
    String key = c.pending() == null ? null : c.pending().key();
    if (key != null && !engine.has(op, RecordSet.QUARANTINED_KEYS, key)) {
      op.j.append(
          RecordSet.QUARANTINED_KEYS,
          key,
          JsonObject.builder().put("idempotency_key", key).put("case_id", c.caseId()).build());
    }
    boolean replan = ReviewDecision.REPLAN.equals(d.decision());
    op.b.pending = null;
    op.b.review = null;
    op.b.verified = null;
    Observation live = engine.observe();
    op.b.binding = live;
    Transition t = replan ? Transition.REPLAN : Transition.ABORT;
    if (replan) {
      op.b.stopReason = null;
    } else {
      op.b.stopReason =
          switch (c.reason()) {
            case ReviewCase.ENVIRONMENT_DRIFT -> "environment_drift_reviewed";
            case ReviewCase.CANCEL_REQUESTED -> "cancel_reviewed";
            case ReviewCase.UNCERTAIN_EFFECT -> "uncertain_effect_reviewed";
            default -> "receipt_conflict_reviewed";
          };
    }
    JsonObject detail =
        JsonObject.builder()
            .put("phase", t.to().wireName())
            .put("decision", d.decision())
            .put("reviewer_id", d.reviewerId())
            .put("quarantined_idempotency_key", key)
            .put("sealed_case", c.toJson())
            .put("sealed_decision", env.toJson())
            .build();
    String actionId = c.pending() == null ? null : c.pending().action().actionId();
    String kind = c.pending() == null ? null : c.pending().action().kind();
    op.transition(t, actionId, kind, detail);
    engine.commit(op);
    return new StepOutcome.Done(StepOutcome.Kind.EXECUTED, actionId, detail, null);
  }

  private static void same(String field, Object got, Object want) {
    DecisionChecks.requireSame("decision", field, got, want, BOUND);
  }

  private static void same(Optional<String> mismatch) {
    DecisionChecks.requireBound(mismatch, "decision", BOUND);
  }
}
