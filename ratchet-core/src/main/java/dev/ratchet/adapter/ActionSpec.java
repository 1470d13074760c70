package dev.ratchet.adapter;

import dev.ratchet.json.JsonObject;
import dev.ratchet.json.Text;
import java.util.Objects;

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
