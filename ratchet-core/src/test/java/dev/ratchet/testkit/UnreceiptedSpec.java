package dev.ratchet.testkit;

import dev.ratchet.adapter.ActionClass;
import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.EffectKind;
import dev.ratchet.json.JsonObject;

/**
 * An action spec that is the given one in every respect but its effect kind, which it declares
 * {@link EffectKind#UNRECEIPTED} (SPEC D23): the test adapters that turn one of the workspace's
 * receipted actions into an unreceipted one share it.
 */
final class UnreceiptedSpec {
  private UnreceiptedSpec() {}

  static ActionSpec of(ActionSpec s) {
    return new ActionSpec() {
      @Override
      public String kind() {
        return s.kind();
      }

      @Override
      public ActionClass actionClass() {
        return s.actionClass();
      }

      @Override
      public String permission() {
        return s.permission();
      }

      @Override
      public String risk() {
        return s.risk();
      }

      @Override
      public void validateArguments(JsonObject arguments, String path) {
        s.validateArguments(arguments, path);
      }

      @Override
      public String target(JsonObject arguments) {
        return s.target(arguments);
      }

      @Override
      public EffectKind effectKind() {
        return EffectKind.UNRECEIPTED;
      }
    };
  }
}
