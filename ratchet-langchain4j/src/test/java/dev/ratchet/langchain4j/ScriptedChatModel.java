package dev.ratchet.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A deterministic chat model: it answers by the conversation's content (which tool results it
 * holds) and counts its calls per decision, so a test sees a decided step asked again.
 *
 * <ol>
 *   <li>no tool result yet: write the fixed app.py and run the tests (two calls, one response);
 *   <li>a run_tests result: answer without a tool call ("done").
 * </ol>
 */
final class ScriptedChatModel implements ChatModel {
  static final String FIXED = "print('ready')\n";

  private final Map<String, Integer> calls = new HashMap<>();
  private final List<String> toolsSeen = new java.util.ArrayList<>();

  @Override
  public synchronized ChatResponse doChat(ChatRequest request) {
    List<ChatMessage> messages = request.messages();
    request.toolSpecifications().forEach(t -> toolsSeen.add(t.name()));
    boolean tested =
        messages.stream()
            .anyMatch(
                m -> m instanceof ToolExecutionResultMessage t && t.toolName().equals("run_tests"));
    String decision = tested ? "finish" : "repair";
    calls.merge(decision, 1, Integer::sum);
    AiMessage ai =
        tested
            ? AiMessage.from("done: app.py fixed and the tests pass")
            : AiMessage.from(
                List.of(
                    ToolExecutionRequest.builder()
                        .id("call-write")
                        .name("write_file")
                        .arguments("{\"path\":\"app.py\",\"content\":\"print('ready')\\n\"}")
                        .build(),
                    ToolExecutionRequest.builder()
                        .id("call-test")
                        .name("run_tests")
                        .arguments("{\"target\":\"unit\"}")
                        .build()));
    return ChatResponse.builder()
        .aiMessage(ai)
        .id("resp-" + decision)
        .modelName("scripted")
        .tokenUsage(new TokenUsage(100, 20))
        .build();
  }

  synchronized int calls(String decision) {
    return calls.getOrDefault(decision, 0);
  }

  synchronized int total() {
    return calls.values().stream().mapToInt(Integer::intValue).sum();
  }

  synchronized List<String> toolsSeen() {
    return List.copyOf(toolsSeen);
  }
}
