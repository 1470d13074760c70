package dev.ratchet.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.ratchet.Run;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.telemetry.ExternalCall;
import dev.ratchet.telemetry.RatchetObserver;
import dev.ratchet.testkit.RuntimeFixture;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 39 item 7: every model call the durable agent makes is reported to the runtime's observer
 * with OpenTelemetry's GenAI attributes (ratchet-telemetry's {@code GenAiSpansTest} turns them into
 * spans): operation {@code chat}, the provider by the conventions' name, the requested model; no
 * message content.
 */
class ModelCallSpansTest {
  /** The scripted model, as an OpenAI model named gpt-4o would describe itself. */
  private static final class OpenAiLike implements ChatModel {
    private final ScriptedChatModel scripted = new ScriptedChatModel();

    @Override
    public ChatResponse doChat(ChatRequest request) {
      return scripted.doChat(request);
    }

    @Override
    public ModelProvider provider() {
      return ModelProvider.OPEN_AI;
    }

    @Override
    public ChatRequestParameters defaultRequestParameters() {
      return ChatRequestParameters.builder().modelName("gpt-4o").build();
    }
  }

  @Test
  void eachModelCallIsReportedWithTheGenAiAttributes() {
    RuntimeFixture f = RuntimeFixture.inMemory(17);
    TaskSpec task = f.task();
    List<ExternalCall> calls = new ArrayList<>();
    RatchetObserver o =
        new RatchetObserver() {
          @Override
          public void called(ExternalCall call) {
            calls.add(call);
          }
        };
    try (Run run =
        f.builder("w1", CrashSeam.NONE).observer(o).build().start(task, "run-m", f.workspace())) {
      DurableAgent.builder(new OpenAiLike()).goal("fix app.py").build().drive(run, task);
    }
    assertThat(calls).as("a repair turn and a finishing turn").hasSize(2);
    for (ExternalCall c : calls) {
      assertThat(c.spanName()).isEqualTo("chat gpt-4o");
      assertThat(c.received()).isFalse();
      assertThat(c.runId()).isEqualTo("run-m");
      assertThat(c.outcome()).isEqualTo("ok");
      assertThat(c.attributes())
          .isEqualTo(
              Map.of(
                  "gen_ai.operation.name", "chat",
                  "gen_ai.provider.name", "openai",
                  "gen_ai.request.model", "gpt-4o"));
    }
  }
}
