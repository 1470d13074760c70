package dev.ratchet.mcp.internal;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.ArgumentSchema;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import java.util.ArrayList;
import java.util.List;

/**
 * A tool's input schema: the adapter's argument schema, plus the {@code call_id} every write takes
 * (ADR 0080). A kind whose adapter declares no schema gets an open object: the runtime still checks
 * every argument, and its message names the field and the rule.
 */
final class Schemas {
  static final String CALL_ID = "call_id";
  static final String CALL_ID_PATTERN = "^[A-Za-z0-9._:-]{1,100}$";

  private Schemas() {}

  static JsonObject input(ActionSpec spec, boolean write) {
    JsonObject base = adapterSchema(spec);
    if (!write) {
      return base;
    }
    JsonObject props = base.get("properties").map(v -> (JsonObject) v).orElse(JsonObject.EMPTY);
    props =
        props.with(
            CALL_ID,
            JsonObject.builder()
                .put("type", "string")
                .put("pattern", CALL_ID_PATTERN)
                .put(
                    "description",
                    "Your id for this one intended write: a new unique value for each write you"
                        + " intend; the SAME value when you retry this write after an error,"
                        + " timeout or disconnect (the retry then returns the original outcome"
                        + " and never writes twice).")
                .build());
    List<JsonValue> required = new ArrayList<>();
    required.add(new JsonString(CALL_ID));
    base.get("required")
        .filter(JsonArray.class::isInstance)
        .ifPresent(r -> required.addAll(((JsonArray) r).items()));
    return base.with("properties", props).with("required", new JsonArray(required));
  }

  /** The adapter's schema for the kind's arguments, or an open object when it declares none. */
  private static JsonObject adapterSchema(ActionSpec spec) {
    return spec.argumentSchema()
        .map(ArgumentSchema::toJson)
        .orElseGet(() -> JsonObject.builder().put("type", "object").build());
  }
}
