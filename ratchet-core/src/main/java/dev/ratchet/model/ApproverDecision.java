package dev.ratchet.model;

import dev.ratchet.sign.Role;
import dev.ratchet.store.InboxItem;

/**
 * An approver's decision about one pending write (SPEC D19): an {@link Approval} or an {@link
 * ApprovalRejection}. Both are signed by the approvers' trust root and travel as inbox kind {@code
 * APPROVAL} (a rejection told apart by its {@code decision} field, ADR 0072).
 */
public sealed interface ApproverDecision extends Decision permits Approval, ApprovalRejection {
  String approverId();

  /** The intent digest of the write it decides about. */
  default String intentDigest() {
    return binding().intentDigest();
  }

  @Override
  default String signerId() {
    return approverId();
  }

  @Override
  default Role role() {
    return Role.APPROVER;
  }

  @Override
  default InboxItem.Kind inboxKind() {
    return InboxItem.Kind.APPROVAL;
  }
}
