package dev.ratchet.adapter;

import dev.ratchet.json.JsonObject;
import dev.ratchet.json.Text;
import java.util.Objects;
import java.util.Optional;

/**
 * One action kind an adapter offers: its class, the permission and risk it requires, and how to
 * validate its arguments and find the target the task's allowlist is checked against.
 */
public interface ActionSpec {
  String kind();

  ActionClass actionClass();

  /** The task permission this kind needs, for example {@code workspace.write}. */
  String permission();

  /** The risk class an action of this kind must declare, for example {@code reversible_write}. */
  String risk();

  /** Throws {@code CONTRACT} naming the field and rule when the arguments are malformed. */
  void validateArguments(JsonObject arguments, String path);

  /** The allowlisted target (path, host, command) the arguments address. */
  String target(JsonObject arguments);

  /**
   * The arguments' shape as a value (JSON Schema via {@link ArgumentSchema#toJson()}), empty when
   * the kind was declared with an opaque rule only.
   */
  default Optional<ArgumentSchema> argumentSchema() {
    return Optional.empty();
  }

  /**
   * What a crash inside this action leaves (SPEC D23): writes are receipted unless declared
   * otherwise, reads and verifications are read-only.
   */
  default EffectKind effectKind() {
    return actionClass() == ActionClass.WRITE ? EffectKind.RECEIPTED : EffectKind.READ_ONLY;
  }

  /**
   * A spec whose arguments are described by {@code schema}: {@code rule} runs first (keeping the
   * adapter's own messages), then the schema's checks, so what the schema promises is enforced.
   */
  static ActionSpec of(
      String kind,
      ActionClass actionClass,
      String permission,
      String risk,
      ArgumentSchema schema,
      ArgumentRule rule,
      TargetRule targetRule) {
    EffectKind effect =
        actionClass == ActionClass.WRITE ? EffectKind.RECEIPTED : EffectKind.READ_ONLY;
    return new SchemaSpec(kind, actionClass, permission, risk, schema, rule, targetRule, effect);
  }

  /** A read-only tool: executed directly, re-run freely after a crash. */
  static ActionSpec readOnly(
      String kind, String permission, ArgumentSchema schema, TargetRule targetRule) {
    return schemaOnly(
        kind, ActionClass.READ, permission, "read_only", schema, targetRule, EffectKind.READ_ONLY);
  }

  /** A write whose system can look its effect up by idempotency key (an adapter's receipt). */
  static ActionSpec receipted(
      String kind, String permission, String risk, ArgumentSchema schema, TargetRule targetRule) {
    return schemaOnly(
        kind, ActionClass.WRITE, permission, risk, schema, targetRule, EffectKind.RECEIPTED);
  }

  /**
   * A write nothing can look up (D23: at most once). The runtime commits its intent and an {@code
   * effect_started} mark before the adapter runs it; a crash before its result commits freezes the
   * run {@code uncertain_effect} and it is never re-run automatically (ADR 0071).
   */
  static ActionSpec unreceipted(
      String kind, String permission, String risk, ArgumentSchema schema, TargetRule targetRule) {
    return schemaOnly(
        kind, ActionClass.WRITE, permission, risk, schema, targetRule, EffectKind.UNRECEIPTED);
  }

  /** A kind whose arguments the schema alone checks (no extra rule). */
  private static ActionSpec schemaOnly(
      String kind,
      ActionClass actionClass,
      String permission,
      String risk,
      ArgumentSchema schema,
      TargetRule targetRule,
      EffectKind effect) {
    return new SchemaSpec(
        kind, actionClass, permission, risk, schema, (a, p) -> {}, targetRule, effect);
  }

  /** A spec from parts, for adapters whose kinds are simple. */
  static ActionSpec of(
      String kind,
      ActionClass actionClass,
      String permission,
      String risk,
      ArgumentRule rule,
      TargetRule targetRule) {
    Text.require("kind", kind);
    Objects.requireNonNull(actionClass);
    Text.require("permission", permission);
    Text.require("risk", risk);
    return new ActionSpec() {
      @Override
      public String kind() {
        return kind;
      }

      @Override
      public ActionClass actionClass() {
        return actionClass;
      }

      @Override
      public String permission() {
        return permission;
      }

      @Override
      public String risk() {
        return risk;
      }

      @Override
      public void validateArguments(JsonObject arguments, String path) {
        rule.validate(arguments, path);
      }

      @Override
      public String target(JsonObject arguments) {
        return targetRule.target(arguments);
      }
    };
  }

  @FunctionalInterface
  interface ArgumentRule {
    void validate(JsonObject arguments, String path);
  }

  @FunctionalInterface
  interface TargetRule {
    String target(JsonObject arguments);
  }
}
