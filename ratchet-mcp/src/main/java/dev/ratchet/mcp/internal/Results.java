package dev.ratchet.mcp.internal;

import dev.ratchet.adapter.Receipt;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.mcp.ServerSettings;
import dev.ratchet.outcome.StepOutcome;
import io.modelcontextprotocol.spec.McpSchema;

/**
 * The tool results a call returns. Success and waiting carry structured content (the receipt or the
 * verification evidence, SPEC D25); refusals are tool errors ({@code isError}) naming the Ratchet
 * code, so the model can read them and react, and the same text is in the content.
 */
final class Results {
  private final JsonBridge json;
  private final ServerSettings settings;

  Results(JsonBridge json, ServerSettings settings) {
    this.json = json;
    this.settings = settings;
  }

  /** An outcome the runtime returned (executed, replayed, reconciled; a read or verification). */
  McpSchema.CallToolResult outcome(String status, String callId, StepOutcome o) {
    return done(status, callId, o.actionId(), o.result(), o.receipt());
  }

  McpSchema.CallToolResult done(
      String status, String callId, String actionId, JsonObject result, Receipt receipt) {
    JsonObject.Builder b = JsonObject.builder().put("status", status);
    if (callId != null) {
      b.put("call_id", callId);
    }
    b.put("action_id", actionId).put("run_id", settings.runId()).put("result", result);
    if (receipt != null) {
      b.put("receipt", receipt.toJson());
    }
    JsonObject s = b.build();
    String text =
        switch (status) {
          case "already_done" ->
              "Already done earlier under this call_id (nothing was written again): ";
          case "reconciled" -> "Done (the server recovered it from the service's receipt): ";
          case "executed", "replayed" -> "Done: ";
          default -> status + ": ";
        };
    return McpSchema.CallToolResult.builder()
        .addTextContent(text + Canonical.string(s))
        .structuredContent(json.toMap(s))
        .isError(false)
        .build();
  }

  /** A write that waits for an operator's signed approval; the client calls again later. */
  McpSchema.CallToolResult awaitingApproval(
      String callId, String actionId, String kind, String why) {
    String command = settings.approveCommand();
    JsonObject.Builder b =
        JsonObject.builder()
            .put("status", "awaiting_approval")
            .put("call_id", callId)
            .put("action_id", actionId)
            .put("kind", kind)
            .put("run_id", settings.runId())
            .put("approve_command", command)
            .put("detail", why);
    String link = approvalPage();
    if (link != null) {
      b.put("console_url", link);
    }
    JsonObject s = b.build();
    String text =
        "This write ("
            + kind
            + ", call_id "
            + callId
            + ") is recorded and waits for a human approval; it has NOT happened yet. An"
            + " operator approves it with: "
            + command
            + (link == null ? "" : " (or on " + link + ")")
            + ". Call this tool again later with the same call_id and the same arguments to get"
            + " the outcome. Changed arguments would be a new write needing its own approval.";
    return McpSchema.CallToolResult.builder()
        .addTextContent(text)
        .structuredContent(json.toMap(s))
        .isError(false)
        .build();
  }

  /** The command an operator runs to approve a waiting write. */
  String approveCommand() {
    return settings.approveCommand();
  }

  /** The console's approval page of the run, or null without a console. */
  String approvalPage() {
    return settings.consoleUrl() == null
        ? null
        : settings.consoleUrl().replaceAll("/+$", "") + "/runs/" + settings.runId() + "/approve";
  }

  /** A refusal as a tool error: the Ratchet code, its message, and what the model can do. */
  McpSchema.CallToolResult error(RatchetException e, String callId) {
    String hint = hint(e.code());
    JsonObject.Builder b =
        JsonObject.builder()
            .put("status", "refused")
            .put("error_code", e.code().name())
            .put("message", String.valueOf(e.getMessage()));
    if (callId != null) {
      b.put("call_id", callId);
    }
    b.put("hint", hint);
    JsonObject s = b.build();
    return McpSchema.CallToolResult.builder()
        .addTextContent(e.code().name() + ": " + e.getMessage() + " " + hint)
        .structuredContent(json.toMap(s))
        .isError(true)
        .build();
  }

  private String hint(ErrorCode code) {
    return switch (code) {
      case STALE_OBSERVATION ->
          "The environment changed since you last read it: read it again, then retry with a new"
              + " call_id.";
      case IDEMPOTENCY_CONFLICT ->
          "A call_id names one intended write: use a new call_id for a different write.";
      case PERMISSION -> "The task's policy does not allow this; do not retry it.";
      case APPROVAL -> "A human must approve first; you cannot approve it yourself.";
      case REVIEW_REQUIRED ->
          "The run is frozen for a human reviewer ('ratchet review show "
              + settings.runId()
              + "'); nothing more happens until they decide.";
      case TERMINAL -> "The run has ended; no more actions are accepted.";
      case CONTRACT -> "Fix the named argument and call again.";
      case VERIFICATION, CHECKPOINT, FENCED ->
          "The server refused to act on records it could not verify; an operator must look.";
      default -> "An operator must look at the server's log.";
    };
  }
}
