package dev.ratchet.browser;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;
import dev.ratchet.json.JsonObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A scripted, offline model that shops through the web front end: no tool result yet, two {@code
 * fill_and_submit} calls on the order form (one response); both answered, {@code check_account};
 * checked, done. It counts its calls per decision, so a test sees a decided step asked again.
 */
final class BrowserChatModel implements ChatModel {
  private final String account;
  private final Map<String, Integer> calls = new HashMap<>();

  BrowserChatModel(String account) {
    this.account = account;
  }

  int calls(String decision) {
    return calls.getOrDefault(decision, 0);
  }

  @Override
  public ChatResponse doChat(ChatRequest request) {
    List<ChatMessage> messages = request.messages();
    boolean checked = answered(messages, "check_account");
    boolean ordered = answered(messages, "fill_and_submit");
    String decision = checked ? "finish" : ordered ? "check" : "order";
    calls.merge(decision, 1, Integer::sum);
    AiMessage ai =
        switch (decision) {
          case "finish" -> AiMessage.from("done: two orders placed on the web page and checked");
          case "check" ->
              AiMessage.from(
                  List.of(
                      call(
                          "call-check",
                          "check_account",
                          JsonObject.builder().put("account", account).build())));
          default ->
              AiMessage.from(
                  List.of(
                      call("call-order-1", "fill_and_submit", BrowserRuns.writes(account).get(0)),
                      call("call-order-2", "fill_and_submit", BrowserRuns.writes(account).get(1))));
        };
    return ChatResponse.builder()
        .aiMessage(ai)
        .id("resp-" + decision)
        .modelName("scripted-browser")
        .tokenUsage(new TokenUsage(100, 20))
        .build();
  }

  private static boolean answered(List<ChatMessage> messages, String tool) {
    return messages.stream()
        .anyMatch(m -> m instanceof ToolExecutionResultMessage t && t.toolName().equals(tool));
  }

  private static ToolExecutionRequest call(String id, String tool, JsonObject args) {
    return ToolExecutionRequest.builder().id(id).name(tool).arguments(args.toString()).build();
  }
}
