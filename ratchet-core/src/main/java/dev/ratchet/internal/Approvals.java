package dev.ratchet.internal;

import dev.ratchet.adapter.Observation;
import dev.ratchet.error.DecisionRefused;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Json;
import dev.ratchet.model.Action;
import dev.ratchet.model.Approval;
import dev.ratchet.model.DecisionBinding;
import dev.ratchet.model.RunState;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.RecordSet;
import java.util.Objects;

/**
 * Checks signed approvals (SPEC §6, D19, reference-behaviour §2.3.3 and §3.5): trusted approver
 * key, valid Ed25519 signature, exact bindings, expiry; every refusal has a {@link
 * DecisionRefused.Reason}. Approvals arrive through the run's inbox (D12) and are consumed only in
 * a commit of the lease holder.
 */
final class Approvals {
  private static final String BOUND = "is not bound to this action and environment";

  private Approvals() {}

  /** Signature and trust root only; returns the parsed payload. */
  static Approval authenticate(RunContext ctx, SignedEnvelope env) {
    return DecisionChecks.authenticate(
        ctx, env, Approval.fromJson(env.payload(), "approval.payload"));
  }

  /**
   * Every binding of an approval to this run, action and environment. Expiry (wall clock and
   * proposal count) is checked only when {@code fresh}: expired evidence still loads at recovery
   * and is frozen at execution (docs/decisions.md, quirk 7).
   */
  static void checkBinding(
      RunContext ctx,
      RunState s,
      Approval a,
      Action action,
      String digest,
      Observation env,
      long proposals,
      boolean fresh) {
    DecisionChecks.requireBound(
        a.binding()
            .mismatch(
                new DecisionBinding(
                    s.taskId(),
                    s.runId(),
                    ctx.task().policyId(),
                    ctx.task().policyVersion(),
                    action.actionId(),
                    action.idempotencyKey(),
                    digest),
                "intent_digest"),
        "approval",
        BOUND);
    mustEqual("environment_instance_id", a.environmentInstanceId(), env.instanceId());
    mustEqual("state_fingerprint", a.stateFingerprint(), env.stateFingerprint());
    mustEqual("environment_revision", a.environmentRevision(), env.revision());
    if (fresh && a.expiresAtProposal() < proposals) {
      throw new DecisionRefused(
          DecisionRefused.Reason.EXPIRED,
          "approval expired: proposal count " + proposals + " is past " + a.expiresAtProposal());
    }
    if (fresh && a.expiresAtMs() <= ctx.nowMs()) {
      throw new DecisionRefused(
          DecisionRefused.Reason.EXPIRED, "approval expired at " + a.expiresAtMs() + " ms");
    }
  }

  /**
   * The first inbox approval for {@code action} that is unconsumed, authentic and exactly bound;
   * null if none. Every refused candidate goes into {@code refusals} with its reason.
   */
  static SignedEnvelope findValid(
      Engine engine,
      Engine.Op op,
      Action action,
      String digest,
      Observation env,
      Refusals refusals) {
    RunContext ctx = engine.ctx();
    for (InboxItem item : ctx.store().inbox(engine.state().taskId(), engine.state().runId())) {
      if (item.kind() != InboxItem.Kind.APPROVAL) {
        continue;
      }
      try {
        SignedEnvelope env1 = SignedEnvelope.fromJson(Json.parse(item.envelope()), "approval");
        if (dev.ratchet.model.ApprovalRejection.isRejection(env1.payload())) {
          continue; // an approver's rejection (ADR 0072): Rejections consumes it
        }
        if (!Objects.equals(
            env1.payload().get("action_id").orElse(null),
            new dev.ratchet.json.JsonString(action.actionId()))) {
          continue;
        }
        Approval a = authenticate(ctx, env1);
        if (!a.nonce().equals(item.nonce())) {
          throw new DecisionRefused(
              DecisionRefused.Reason.WRONG_BINDING, "approval nonce differs from its inbox nonce");
        }
        if (engine.has(op, RecordSet.NONCES, a.nonce())) {
          throw new DecisionRefused(
              DecisionRefused.Reason.REPLAYED_NONCE,
              "approval nonce '" + a.nonce() + "' was already used");
        }
        checkBinding(ctx, engine.state(), a, action, digest, env, op.b.usage.proposals(), true);
        return env1;
      } catch (RatchetException e) {
        if (DecisionChecks.fatal(e)) {
          throw e;
        }
        refusals.add(item, e);
      }
    }
    return null;
  }

  static RatchetException noneValid(String actionId, Refusals refusals) {
    return refusals.noneValid("approval for action '" + actionId + "'");
  }

  /** The write waits for its approval (D32: a value, never an exception). */
  static StepOutcome.AwaitingApproval awaiting(String actionId, Refusals refusals) {
    dev.ratchet.error.ApprovalMissing none =
        (dev.ratchet.error.ApprovalMissing) noneValid(actionId, refusals);
    return new StepOutcome.AwaitingApproval(actionId, none.getMessage(), none.reasons());
  }

  private static void mustEqual(String field, Object got, Object want) {
    DecisionChecks.requireSame("approval", field, got, want, BOUND);
  }

  static Refusals newRefusals() {
    return new Refusals();
  }
}
