package dev.ratchet.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * A deterministic chat model for the ledger, run inside a child JVM: it answers by which tool
 * results the conversation holds and appends each decision it makes to a call-count file (synced
 * before it answers), so the parent counts model calls across SIGKILLs.
 *
 * <ol>
 *   <li>no tool result: two {@code create_order} calls in one response ("order");
 *   <li>both orders answered: {@code check_account} ("check");
 *   <li>the check answered: done, without a tool call ("finish").
 * </ol>
 */
final class LedgerChatModel implements ChatModel {
  private final String account;
  private final Path calls;

  LedgerChatModel(String account, Path calls) {
    this.account = account;
    this.calls = calls;
  }

  @Override
  public ChatResponse doChat(ChatRequest request) {
    List<ChatMessage> messages = request.messages();
    boolean checked = answered(messages, "check_account");
    boolean ordered = answered(messages, "create_order");
    String decision = checked ? "finish" : ordered ? "check" : "order";
    record(decision);
    AiMessage ai =
        switch (decision) {
          case "finish" -> AiMessage.from("done: two orders placed and the account checked");
          case "check" -> AiMessage.from(List.of(call("call-check", "check_account", account())));
          default ->
              AiMessage.from(
                  List.of(
                      call("call-order-1", "create_order", order("sku-1", 1, 100)),
                      call("call-order-2", "create_order", order("sku-2", 2, 250))));
        };
    return ChatResponse.builder()
        .aiMessage(ai)
        .id("resp-" + decision)
        .modelName("scripted-ledger")
        .tokenUsage(new TokenUsage(100, 20))
        .build();
  }

  private static boolean answered(List<ChatMessage> messages, String tool) {
    return messages.stream()
        .anyMatch(m -> m instanceof ToolExecutionResultMessage t && t.toolName().equals(tool));
  }

  private void record(String decision) {
    try {
      Files.writeString(
          calls,
          decision + "\n",
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND,
          StandardOpenOption.SYNC);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String account() {
    return "{\"account\":\"" + account + "\"}";
  }

  private String order(String sku, int quantity, int cents) {
    return "{\"account\":\""
        + account
        + "\",\"sku\":\""
        + sku
        + "\",\"quantity\":"
        + quantity
        + ",\"unit_price_cents\":"
        + cents
        + "}";
  }

  private static ToolExecutionRequest call(String id, String name, String args) {
    return ToolExecutionRequest.builder().id(id).name(name).arguments(args).build();
  }
}
