package dev.ratchet.langchain4j.internal;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.ratchet.adapter.ActionClass;
import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.ArgumentSchema;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.TaskSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The run's adapter actions as LangChain4j tools: one tool per kind the task allows, its parameters
 * the kind's {@link ArgumentSchema} (each property passed as raw JSON Schema, so patterns, lengths,
 * enums and ranges reach the model). The idempotency key is never a parameter: the runtime mints
 * it.
 */
public final class ToolSpecs {
  private ToolSpecs() {}

  public static List<ToolSpecification> of(List<ActionSpec> specs, TaskSpec task) {
    List<ToolSpecification> out = new ArrayList<>();
    for (ActionSpec s : specs) {
      if (task.actionKinds().contains(s.kind())) {
        out.add(of(s));
      }
    }
    return List.copyOf(out);
  }

  public static ToolSpecification of(ActionSpec spec) {
    JsonObjectSchema.Builder params = JsonObjectSchema.builder();
    spec.argumentSchema()
        .ifPresentOrElse(
            schema -> {
              JsonObject props =
                  (JsonObject) schema.toJson().get("properties").orElse(JsonObject.EMPTY);
              for (Map.Entry<String, ?> e : props.members().entrySet()) {
                params.addProperty(e.getKey(), JsonRawSchema.from(e.getValue().toString()));
              }
              params.required(schema.names()).additionalProperties(false);
            },
            () -> params.description("arguments as the adapter documents them"));
    return ToolSpecification.builder()
        .name(spec.kind())
        .description(describe(spec))
        .parameters(params.build())
        .build();
  }

  private static String describe(ActionSpec spec) {
    String what =
        spec.actionClass() == ActionClass.WRITE
            ? "a write ("
                + spec.risk()
                + ", "
                + spec.effectKind().name().toLowerCase(java.util.Locale.ROOT)
                + ")"
            : spec.actionClass() == ActionClass.VERIFY ? "a verification" : "a read";
    return spec.kind() + ": " + what + " needing permission " + spec.permission();
  }
}
