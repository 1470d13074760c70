package dev.ratchet.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.ratchet.Run;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.RuntimeFixture;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A refused tool call (a target the task does not allow) reaches the model as the tool's result,
 * traced as a rejection; the model re-plans and a new action (its own intent) is proposed.
 */
class RefusalsReachTheModelTest {
  /** First writes a file the task does not allowlist, then reacts to the refusal. */
  static final class ReplanningModel implements ChatModel {
    final List<String> seenResults = new ArrayList<>();

    @Override
    public ChatResponse doChat(ChatRequest request) {
      List<ToolExecutionResultMessage> results = new ArrayList<>();
      for (ChatMessage m : request.messages()) {
        if (m instanceof ToolExecutionResultMessage t) {
          results.add(t);
        }
      }
      seenResults.clear();
      results.forEach(r -> seenResults.add(r.text()));
      AiMessage ai;
      if (results.isEmpty()) {
        ai = AiMessage.from(List.of(call("c1", "write_file", "other.py")));
      } else if (results.size() == 1) {
        ai =
            AiMessage.from(
                List.of(
                    call("c2", "write_file", "app.py"),
                    ToolExecutionRequest.builder()
                        .id("c3")
                        .name("run_tests")
                        .arguments("{\"target\":\"unit\"}")
                        .build()));
      } else {
        ai = AiMessage.from("done");
      }
      return ChatResponse.builder().aiMessage(ai).build();
    }

    private static ToolExecutionRequest call(String id, String tool, String path) {
      return ToolExecutionRequest.builder()
          .id(id)
          .name(tool)
          .arguments("{\"path\":\"" + path + "\",\"content\":\"print('ready')\\n\"}")
          .build();
    }
  }

  @Test
  void aRefusalIsTheToolResultAndTheReplanIsANewIntent() {
    RuntimeFixture f = RuntimeFixture.inMemory(5);
    TaskSpec task = f.task();
    InMemoryWorkspace ws = f.workspace();
    ReplanningModel model = new ReplanningModel();
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      DurableAgent.builder(model).goal("fix app.py").build().drive(run, task);
      assertThat(run.state().phase()).isEqualTo(Phase.COMPLETED);
      assertThat(model.seenResults.get(0))
          .contains("\"outcome\":\"refused\"")
          .contains("PERMISSION")
          .contains("other.py");
      List<String> outcomes =
          run.trace().stream()
              .filter(e -> e.actionId() != null && e.actionId().startsWith("turn-"))
              .map(e -> e.actionId() + " " + e.outcome())
              .toList();
      assertThat(outcomes).contains("turn-1.0 permission_denied", "turn-2.0 accepted_pending");
      assertThat(run.trace().stream().filter(e -> "turn-2.0".equals(e.actionId())))
          .extracting(e -> e.outcome().wireName())
          .contains("executed");
      assertThat(ws.ledger()).hasSize(1);
    }
  }
}
