package dev.ratchet.examples.agent;

import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.ratchet.Run;
import dev.ratchet.langchain4j.DurableAgent;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.RuntimeFixture;
import dev.ratchet.worker.DriveResult;

/**
 * A real model repairs the teaching workspace (app.py prints the wrong greeting) as a durable run.
 * The model comes from the environment: {@code OPENAI_API_KEY} (OpenAI), {@code ANTHROPIC_API_KEY}
 * (Anthropic), or {@code OLLAMA_BASE_URL} (a local Ollama through the OpenAI module, e.g. {@code
 * http://localhost:11434/v1}); {@code RATCHET_MODEL} names the model. The store, keys and workspace
 * are core's in-memory fixtures, so the example needs nothing else.
 */
public final class AgentExample {
  private AgentExample() {}

  public static void main(String[] args) {
    ChatModel model = model();
    RuntimeFixture f = RuntimeFixture.inMemory(1);
    TaskSpec task = f.task();
    InMemoryWorkspace ws = f.workspace();
    DurableAgent agent =
        DurableAgent.builder(model)
            .systemPrompt(
                "You repair a Python project. Read app.py, write it so it prints 'ready', run"
                    + " the unit tests (target 'unit'), then answer without a tool call.")
            .goal("app.py prints the wrong greeting: fix it")
            .maxTurns(12)
            .build();
    try (Run run = f.ratchet("example").start(task, "run-1", ws)) {
      DriveResult r = agent.drive(run, task);
      System.out.println(
          "result: " + r.kind() + " (" + r.reason() + "), phase " + run.state().phase());
      System.out.println("app.py: " + ws.files().get("app.py").strip());
      System.out.println("model responses committed: " + run.causes().size());
    }
  }

  private static ChatModel model() {
    String name = System.getenv("RATCHET_MODEL");
    if (System.getenv("OPENAI_API_KEY") != null) {
      return OpenAiChatModel.builder()
          .apiKey(System.getenv("OPENAI_API_KEY"))
          .modelName(name == null ? "gpt-4o-mini" : name)
          .build();
    }
    if (System.getenv("ANTHROPIC_API_KEY") != null) {
      return AnthropicChatModel.builder()
          .apiKey(System.getenv("ANTHROPIC_API_KEY"))
          .modelName(name == null ? "claude-3-5-haiku-latest" : name)
          .build();
    }
    if (System.getenv("OLLAMA_BASE_URL") != null) {
      return OpenAiChatModel.builder()
          .baseUrl(System.getenv("OLLAMA_BASE_URL"))
          .apiKey("ollama")
          .modelName(name == null ? "llama3.1" : name)
          .build();
    }
    throw new IllegalStateException(
        "set OPENAI_API_KEY, ANTHROPIC_API_KEY or OLLAMA_BASE_URL to choose a model");
  }
}
