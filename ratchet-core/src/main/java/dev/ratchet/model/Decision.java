package dev.ratchet.model;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.sign.Role;
import dev.ratchet.store.InboxItem;

/**
 * A human decision about one run (SPEC D19, D30): an approval, an approver's rejection, an
 * operator's cancel, pause, unpause, migration or fork (D37) or a reviewer's decision. Each is
 * bound to its run (and pending write) by one {@link DecisionBinding}, names its signer and a
 * single-use nonce, and is signed by a key of its {@link #role()}'s trust root over {@link
 * #payload()} — the canonical bytes a CLI signs with a key file and a browser signs with WebCrypto
 * (see {@link SignedDecision}).
 */
public sealed interface Decision
    permits ApproverDecision,
        CancelRequest,
        ForkDecision,
        MigrateDecision,
        PauseDecision,
        ReviewDecision {

  /** What the decision is bound to. */
  DecisionBinding binding();

  /** The signer the payload names (approver_id, reviewer_id, operator_id). */
  String signerId();

  String nonce();

  /** The trust root whose keys may sign it. */
  Role role();

  /** The inbox kind it travels under (D12). */
  InboxItem.Kind inboxKind();

  /** The payload, field for field as signed. */
  JsonObject toJson();

  /** The canonical (RFC 8785) bytes of {@link #toJson()}: exactly what is signed. */
  default byte[] payload() {
    return Canonical.bytes(toJson());
  }

  default String taskId() {
    return binding().taskId();
  }

  default String runId() {
    return binding().runId();
  }

  default String policyId() {
    return binding().policyId();
  }

  default String policyVersion() {
    return binding().policyVersion();
  }

  default String actionId() {
    return binding().actionId();
  }

  default String idempotencyKey() {
    return binding().idempotencyKey();
  }

  /**
   * The decision a payload holds, told apart by its fields: {@code "decision": "reject"} is a
   * rejection; {@code reviewer_id}, {@code operator_id} and {@code approver_id} name the others.
   * Refused ({@code CONTRACT}, naming the path) when it is none of them or malformed.
   */
  static Decision fromJson(JsonValue payload, String path) {
    JsonObject o = Fields.asObject(payload, path);
    if (ApprovalRejection.isRejection(o)) {
      return ApprovalRejection.fromJson(o, path);
    }
    if (o.get("reviewer_id").orElse(null) instanceof JsonString) {
      return ReviewDecision.fromJson(o, path);
    }
    if (MigrateDecision.isMigrate(o)) {
      return MigrateDecision.fromJson(o, path);
    }
    if (PauseDecision.isPause(o)) {
      return PauseDecision.fromJson(o, path);
    }
    if (ForkDecision.isFork(o)) {
      return ForkDecision.fromJson(o, path);
    }
    if (o.get("operator_id").orElse(null) instanceof JsonString) {
      return CancelRequest.fromJson(o, path);
    }
    if (o.get("approver_id").orElse(null) instanceof JsonString) {
      return Approval.fromJson(o, path);
    }
    throw RatchetException.contract(
        path + ": not a decision (names no approver_id, reviewer_id or operator_id)");
  }
}
