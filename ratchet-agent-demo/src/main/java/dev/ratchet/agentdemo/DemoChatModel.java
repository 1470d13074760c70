package dev.ratchet.agentdemo;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;

/**
 * The demo's scripted chat model (offline, deterministic): it answers by which tool results the
 * conversation holds, and appends each decision it makes to a call file (synced before it answers)
 * so the demo counts model calls across SIGKILLs. Subclasses hold the script.
 */
abstract class DemoChatModel implements ChatModel {
  private final Path calls;
  private final String name;

  DemoChatModel(String name, Path calls) {
    this.name = name;
    this.calls = calls;
  }

  /** The decision for this conversation and the message that carries it. */
  record Decision(String name, AiMessage message) {}

  abstract Decision decide(List<ChatMessage> messages);

  @Override
  public ChatResponse doChat(ChatRequest request) {
    Decision d = decide(request.messages());
    try {
      Files.writeString(
          calls,
          d.name() + "\n",
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND,
          StandardOpenOption.SYNC);
    } catch (IOException e) {
      throw new RatchetException(ErrorCode.INTERNAL, "demo call file: " + e.getMessage());
    }
    return ChatResponse.builder()
        .aiMessage(d.message())
        .id("resp-" + d.name())
        .modelName(name)
        .tokenUsage(new TokenUsage(100, 20))
        .build();
  }

  /** The text of the last result of {@code tool}, if the conversation holds one. */
  static Optional<String> result(List<ChatMessage> messages, String tool) {
    String last = null;
    for (ChatMessage m : messages) {
      if (m instanceof ToolExecutionResultMessage t && t.toolName().equals(tool)) {
        last = t.text();
      }
    }
    return Optional.ofNullable(last);
  }

  static ToolExecutionRequest call(String id, String tool, String arguments) {
    return ToolExecutionRequest.builder().id(id).name(tool).arguments(arguments).build();
  }
}
