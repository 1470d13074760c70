package dev.ratchet.model;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A decision that led to actions (SPEC D25): a language model's response with all its tool calls,
 * or an MCP client's {@code tools/call} request. It is committed once, in the same commit as the
 * first proposal it causes, with the cost it reported; recovery reads it back instead of asking the
 * model again. It is not part of any intent digest: an effect is identified by its action, not by
 * why it was decided.
 *
 * @param causeId the caller's id for the decision (e.g. the model response id), unique per run
 * @param kind what decided, e.g. {@code model_response} or {@code mcp_tools_call}
 * @param body what the decider sent, kept as evidence
 * @param costUnits the spend it reported (e.g. tokens), added to the cost budget once
 */
public record Cause(String causeId, String kind, JsonObject body, long costUnits) {
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

  public Cause {
    if (causeId == null || !ID.matcher(causeId).matches()) {
      throw RatchetException.contract("cause.cause_id: must be 1-128 of [A-Za-z0-9._:-]");
    }
    if (kind == null || !ID.matcher(kind).matches()) {
      throw RatchetException.contract("cause.kind: must be 1-128 of [A-Za-z0-9._:-]");
    }
    Objects.requireNonNull(body, "cause.body");
    if (costUnits < 0 || costUnits > JsonInt.MAX_SAFE) {
      throw RatchetException.contract("cause.cost_units: must be >= 0");
    }
  }

  public JsonObject toJson() {
    return JsonObject.builder()
        .put("cause_id", causeId)
        .put("kind", kind)
        .put("body", body)
        .put("cost_units", costUnits)
        .build();
  }

  public static Cause fromJson(JsonValue v, String path) {
    Fields f = Fields.exact(v, path, "cause_id", "kind", "body", "cost_units");
    return new Cause(
        f.string("cause_id"),
        f.string("kind"),
        f.obj("body"),
        f.integer("cost_units", 0, JsonInt.MAX_SAFE));
  }
}
