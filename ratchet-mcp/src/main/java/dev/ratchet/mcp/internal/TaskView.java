package dev.ratchet.mcp.internal;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A durable task as the run's signed state shows it now (ADR 0082): derived afresh on every read,
 * never stored apart from the run, so every server serving the run shows the same one.
 *
 * @param status {@code working}, {@code input_required}, {@code completed} or {@code cancelled}
 * @param result the tool result of a completed task (a receipt, or a refusal as a tool error)
 * @param inputRequests what an {@code input_required} task asks of the client, or null
 */
public record TaskView(
    String taskId,
    String status,
    String message,
    Instant createdAt,
    Instant updatedAt,
    McpSchema.CallToolResult result,
    Map<String, Object> inputRequests) {
  /** The suggested polling interval: the driver looks for a decision about once a second. */
  static final long POLL_INTERVAL_MS = 2000;

  private static final TypeRef<Map<String, Object>> MAP = new TypeRef<>() {};

  /** Whether the task has ended (completed or cancelled): its status will not change again. */
  public boolean terminal() {
    return "completed".equals(status) || "cancelled".equals(status);
  }

  /**
   * The task's wire form: a {@code CreateTaskResult} ({@code resultType} "task") or a {@code
   * GetTaskResult} ("complete"). {@code ttlMs} is null: a task lives as long as its run's records.
   */
  public Map<String, Object> wire(McpJsonMapper json, String resultType) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("resultType", resultType);
    m.put("taskId", taskId);
    m.put("status", status);
    if (message != null) {
      m.put("statusMessage", message);
    }
    m.put("createdAt", createdAt.toString());
    m.put("lastUpdatedAt", updatedAt.toString());
    m.put("ttlMs", null);
    m.put("pollIntervalMs", POLL_INTERVAL_MS);
    if (inputRequests != null) {
      m.put("inputRequests", inputRequests);
    }
    if (result != null) {
      m.put("result", json.convertValue(result, MAP));
    }
    return m;
  }
}
