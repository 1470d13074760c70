package dev.ratchet.mcp.internal;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import io.modelcontextprotocol.modern.McpSchema;
import java.util.Map;

/**
 * A result of the tasks extension on the SDK's newer stack, which has no type for it: a {@code
 * CreateTaskResult} in lieu of a {@code CallToolResult}, a {@code GetTaskResult}, or the empty
 * acknowledgement of {@code tasks/update} and {@code tasks/cancel}. Serialised as its fields.
 */
final class TaskResult implements McpSchema.CallToolOutcome {
  private final Map<String, Object> fields;

  TaskResult(Map<String, Object> fields) {
    this.fields = fields;
  }

  /** The empty acknowledgement ({@code resultType} "complete"). */
  static TaskResult acknowledged() {
    return new TaskResult(Map.of("resultType", McpSchema.ResultType.COMPLETE));
  }

  @JsonAnyGetter
  public Map<String, Object> fields() {
    return fields;
  }

  @Override
  public String resultType() {
    return (String) fields.get("resultType");
  }

  @Override
  public Map<String, Object> meta() {
    return null;
  }
}
