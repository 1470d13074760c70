package dev.ratchet.adapter;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.Text;
import java.util.Objects;
import java.util.Optional;

/** An {@link ActionSpec} declared with an {@link ArgumentSchema} (see its factories). */
record SchemaSpec(
    String kind,
    ActionClass actionClass,
    String permission,
    String risk,
    ArgumentSchema schema,
    ActionSpec.ArgumentRule rule,
    ActionSpec.TargetRule targetRule,
    EffectKind effectKind)
    implements ActionSpec {
  SchemaSpec {
    Text.require("kind", kind);
    Objects.requireNonNull(actionClass, "actionClass");
    Text.require("permission", permission);
    Text.require("risk", risk);
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(targetRule, "targetRule");
    Objects.requireNonNull(effectKind, "effectKind");
    if ((effectKind == EffectKind.READ_ONLY) == (actionClass == ActionClass.WRITE)) {
      throw RatchetException.contract(
          kind + ": a " + actionClass + " action cannot be " + effectKind);
    }
  }

  @Override
  public void validateArguments(JsonObject arguments, String path) {
    rule.validate(arguments, path);
    schema.validate(arguments, path);
  }

  @Override
  public String target(JsonObject arguments) {
    return targetRule.target(arguments);
  }

  @Override
  public Optional<ArgumentSchema> argumentSchema() {
    return Optional.of(schema);
  }
}
