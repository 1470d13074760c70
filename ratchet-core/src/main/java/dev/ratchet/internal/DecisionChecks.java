package dev.ratchet.internal;

import dev.ratchet.error.DecisionRefused;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.Decision;
import dev.ratchet.model.SignedDecision;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.sign.Role;
import dev.ratchet.sign.TrustRoot;
import java.util.Objects;
import java.util.Optional;

/**
 * What every consumer of a signed decision checks the same way (approvals, rejections, cancels,
 * reviewer decisions): the signer under the role's trust root, the binding to this run and write,
 * the inbox nonce, and which failures are refusals of the item rather than broken infrastructure.
 */
final class DecisionChecks {
  private DecisionChecks() {}

  /** The trust root of {@code role} in this run's context. */
  static TrustRoot root(RunContext ctx, Role role) {
    switch (role) {
      case APPROVER:
        return ctx.approvers();
      case REVIEWER:
        return ctx.reviewers();
      default:
        return ctx.operators();
    }
  }

  /** {@code d} as signed in {@code env}, its signer verified under its role's trust root. */
  static <D extends Decision> D authenticate(RunContext ctx, SignedEnvelope env, D d) {
    new SignedDecision(d, env).verify(root(ctx, d.role()));
    return d;
  }

  /** Refuses ({@code WRONG_BINDING}) the first mismatched field: {@code what.field suffix}. */
  static void requireBound(Optional<String> mismatch, String what, String suffix) {
    if (mismatch.isPresent()) {
      throw new DecisionRefused(
          DecisionRefused.Reason.WRONG_BINDING, what + "." + mismatch.get() + " " + suffix);
    }
  }

  /**
   * Refuses ({@code WRONG_BINDING}) {@code what.field suffix} unless {@code got} is {@code want}.
   */
  static void requireSame(String what, String field, Object got, Object want, String suffix) {
    requireBound(Objects.equals(got, want) ? Optional.empty() : Optional.of(field), what, suffix);
  }

  /**
   * Whether a failure while checking an inbox item is broken infrastructure or tampering (a
   * tampered record, D20; a lost lease; an unavailable store), never a mere refusal of the item.
   */
  static boolean fatal(RatchetException e) {
    return e.code() == ErrorCode.CHECKPOINT
        || e.code() == ErrorCode.FENCED
        || e.code() == ErrorCode.STORE_UNAVAILABLE;
  }
}
