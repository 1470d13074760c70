package dev.ratchet.langchain4j;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.outcome.StepOutcome;

/**
 * What a tool call gave the model: its outcome as text (a result, or a refusal it can react to), or
 * that the run must wait for an approval first.
 */
record ToolOutcome(String actionId, String text, boolean waiting) {
  static ToolOutcome of(StepOutcome out) {
    return text(
        out.actionId(),
        JsonObject.builder()
            .put("outcome", out.kind().name().toLowerCase(java.util.Locale.ROOT))
            .put("result", out.result())
            .build());
  }

  static ToolOutcome text(String actionId, JsonObject body) {
    return new ToolOutcome(actionId, body.toString(), false);
  }

  /** A refusal reaches the model as the tool's result: the proposal's trace already records it. */
  static ToolOutcome error(String actionId, RatchetException e) {
    return text(
        actionId,
        JsonObject.builder()
            .put("outcome", "refused")
            .put("error_code", e.code().name())
            .put("message", e.getMessage())
            .build());
  }

  static ToolOutcome waitingFor(String actionId) {
    return new ToolOutcome(actionId, null, true);
  }
}
