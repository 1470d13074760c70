package dev.ratchet.model;

import dev.ratchet.error.DecisionRefused;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.sign.TrustRoot;
import dev.ratchet.store.InboxItem;
import java.util.Objects;

/**
 * Who signed an inbox item, judged by an operator surface before any worker looks at it (D30): the
 * envelope parses, the signature verifies under the trust root of the item's role, and the
 * payload's self-declared signer is that root's name for the key. Only then is {@link #signer()}
 * set; a surface shows that name, never the payload's. Bindings to the run's current state (expiry,
 * digest, environment) are the worker's to check.
 *
 * @param keyId the envelope's key id, or null when the envelope does not parse
 * @param declaredSigner what the payload says (approver_id, reviewer_id, operator_id), or null
 * @param signer the trust root's name for the verifying key; null unless verified
 * @param refused why it does not verify; null when verified
 * @param payload the signed payload, or null when the envelope does not parse
 */
public record InboxVerdict(
    String keyId,
    String declaredSigner,
    String signer,
    DecisionRefused.Reason refused,
    JsonObject payload) {

  public boolean verified() {
    return refused == null;
  }

  /** The payload member {@code key} as text, or null (absent, not a string, or unparsed). */
  public String text(String key) {
    if (payload == null) {
      return null;
    }
    return payload.get(key).orElse(null) instanceof JsonString s ? s.value() : null;
  }

  /**
   * The verdict on {@code item}: approvals and rejections against {@code approvers}, reviewer
   * decisions against {@code reviewers}, cancels against {@code operators}.
   */
  public static InboxVerdict of(
      InboxItem item, TrustRoot approvers, TrustRoot reviewers, TrustRoot operators) {
    Objects.requireNonNull(item, "item");
    SignedEnvelope env;
    try {
      env = SignedEnvelope.fromJson(Json.parse(item.envelope()), "inbox");
    } catch (RatchetException | IllegalArgumentException e) {
      return new InboxVerdict(null, null, null, DecisionRefused.Reason.MALFORMED, null);
    }
    TrustRoot root;
    String field;
    switch (item.kind()) {
      case APPROVAL:
        root = approvers;
        field = "approver_id";
        break;
      case REVIEW_DECISION:
        root = reviewers;
        field = "reviewer_id";
        break;
      default:
        root = operators;
        field = "operator_id";
    }
    String declared =
        env.payload().get(field).orElse(null) instanceof JsonString s ? s.value() : null;
    if (declared == null) {
      return new InboxVerdict(env.keyId(), null, null, DecisionRefused.Reason.MALFORMED, null);
    }
    if (root == null) {
      return new InboxVerdict(
          env.keyId(), declared, null, DecisionRefused.Reason.UNTRUSTED_SIGNER, env.payload());
    }
    try {
      String name =
          root.verifySigner(env.keyId(), env.signedBytes(), env.signatureEd25519(), declared);
      return new InboxVerdict(env.keyId(), declared, name, null, env.payload());
    } catch (DecisionRefused e) {
      return new InboxVerdict(env.keyId(), declared, null, e.reason(), env.payload());
    }
  }
}
