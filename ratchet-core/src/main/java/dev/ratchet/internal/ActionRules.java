package dev.ratchet.internal;

import dev.ratchet.adapter.ActionClass;
import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Fields;
import dev.ratchet.model.Action;
import dev.ratchet.model.TaskSpec;
import java.util.List;

/**
 * The contract and authorisation checks of a proposed action (reference-behaviour §1.6, P2 and P5),
 * generalised from the teaching runtime's fixed kinds to the adapter's {@link ActionSpec}s.
 */
final class ActionRules {
  static final String CONTROL_RISK = "control";

  private ActionRules() {}

  /** The class of a kind; finish and cancel are the runtime's own control kinds. */
  static ActionClass classOf(RunContext ctx, String kind) {
    ActionSpec spec = ctx.specs().get(kind);
    return spec == null ? null : spec.actionClass();
  }

  static boolean isWrite(RunContext ctx, Action a) {
    return classOf(ctx, a.kind()) == ActionClass.WRITE;
  }

  /** Shape rules: known kind, arguments, key presence, preconditions, declared risk. */
  static void validate(RunContext ctx, Action a) {
    ActionSpec spec = ctx.specs().get(a.kind());
    if (spec == null && !a.isControl()) {
      throw RatchetException.contract("action.kind: unknown action kind '" + a.kind() + "'");
    }
    if ("finish".equals(a.kind())) {
      Fields.exact(a.arguments(), "action.arguments");
    } else if ("cancel".equals(a.kind())) {
      Fields.exact(a.arguments(), "action.arguments", "reason").text("reason");
    } else {
      spec.validateArguments(a.arguments(), "action.arguments");
    }
    boolean write = spec != null && spec.actionClass() == ActionClass.WRITE;
    if (!write && a.idempotencyKey() != null) {
      throw RatchetException.contract(
          "action.idempotency_key: only writes carry an idempotency key");
    }
    List<String> required = List.of(Action.REVISION_MATCHES);
    boolean cancel = "cancel".equals(a.kind());
    if (!a.preconditions().equals(required) && !(cancel && a.preconditions().isEmpty())) {
      throw RatchetException.contract(
          "action.preconditions: must be exactly [" + Action.REVISION_MATCHES + "]");
    }
    String risk = spec == null ? CONTROL_RISK : spec.risk();
    if (!risk.equals(a.risk())) {
      throw RatchetException.contract(
          "action.risk: kind '" + a.kind() + "' requires risk '" + risk + "'");
    }
  }

  /** Permission, kind and target allowlists (PERMISSION on failure). */
  static void authorize(RunContext ctx, Action a) {
    if (a.isControl()) {
      return;
    }
    TaskSpec task = ctx.task();
    ActionSpec spec = ctx.specs().get(a.kind());
    if (!task.actionKinds().contains(a.kind())) {
      throw new RatchetException(
          ErrorCode.PERMISSION, "action.kind: '" + a.kind() + "' is not allowed by the task");
    }
    if (!task.permissions().contains(spec.permission())) {
      throw new RatchetException(
          ErrorCode.PERMISSION,
          "action.kind: permission '" + spec.permission() + "' is not granted");
    }
    String target = spec.target(a.arguments());
    if (!task.targets().contains(target)) {
      throw new RatchetException(
          ErrorCode.PERMISSION, "action.arguments: target '" + target + "' is not allowlisted");
    }
  }

  /** SPEC D2: the digest of {namespace, kind, arguments, risk}. */
  static String intentDigest(RunContext ctx, Action a) {
    return new WriteIntent(ctx.adapter().namespace(), a.kind(), a.arguments(), a.risk()).digest();
  }

  static WriteIntent intent(RunContext ctx, Action a) {
    return new WriteIntent(ctx.adapter().namespace(), a.kind(), a.arguments(), a.risk());
  }
}
