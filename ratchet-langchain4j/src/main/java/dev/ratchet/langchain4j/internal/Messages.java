package dev.ratchet.langchain4j.internal;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import java.util.ArrayList;
import java.util.List;

/**
 * Conversation messages as the run's memory records (D25): a small, canonical JSON form of the four
 * message kinds the loop sends, so a resumed agent sends the model the same conversation.
 */
public final class Messages {
  private Messages() {}

  public static JsonObject system(String text) {
    return JsonObject.builder().put("role", "system").put("text", text).build();
  }

  public static JsonObject user(String text) {
    return JsonObject.builder().put("role", "user").put("text", text).build();
  }

  public static JsonObject ai(AiMessage m) {
    List<JsonValue> calls = new ArrayList<>();
    if (m.hasToolExecutionRequests()) {
      for (ToolExecutionRequest r : m.toolExecutionRequests()) {
        calls.add(
            JsonObject.builder()
                .put("id", r.id())
                .put("name", r.name())
                .put("arguments", r.arguments())
                .build());
      }
    }
    return JsonObject.builder()
        .put("role", "ai")
        .put("text", m.text())
        .put("tool_calls", new JsonArray(calls))
        .build();
  }

  public static JsonObject toolResult(String id, String toolName, String text) {
    return JsonObject.builder()
        .put("role", "tool")
        .put("id", id)
        .put("tool_name", toolName)
        .put("text", text)
        .build();
  }

  /** The LangChain4j message a memory record stands for. */
  public static ChatMessage decode(JsonObject m, String path) {
    String role =
        Fields.asObject(m, path).get("role").orElse(null) instanceof JsonString r ? r.value() : "";
    switch (role) {
      case "system":
        return SystemMessage.from(Fields.exact(m, path, "role", "text").string("text"));
      case "user":
        return UserMessage.from(Fields.exact(m, path, "role", "text").string("text"));
      case "tool":
        Fields t = Fields.exact(m, path, "role", "id", "tool_name", "text");
        return ToolExecutionResultMessage.from(
            t.string("id"), t.string("tool_name"), t.string("text"));
      case "ai":
        Fields a = Fields.exact(m, path, "role", "text", "tool_calls");
        List<ToolExecutionRequest> calls = new ArrayList<>();
        JsonArray arr = a.array("tool_calls");
        for (int i = 0; i < arr.size(); i++) {
          Fields c =
              Fields.exact(arr.get(i), path + ".tool_calls[" + i + "]", "id", "name", "arguments");
          calls.add(
              ToolExecutionRequest.builder()
                  .id(c.string("id"))
                  .name(c.string("name"))
                  .arguments(c.string("arguments"))
                  .build());
        }
        String text = a.isNull("text") ? null : a.string("text");
        return calls.isEmpty() ? AiMessage.from(text) : AiMessage.from(text, calls);
      default:
        throw RatchetException.contract(path + ".role: must be system, user, ai or tool");
    }
  }
}
