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
import dev.ratchet.model.ApprovalRejection;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.RuntimeFixture;
import dev.ratchet.worker.DriveResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 18 item 4, ADR 0072: a write that needs an approval is rejected by the approver (signed,
 * with a reason) or its approval expires; either reaches the model as the tool's result, traced,
 * and the write never runs. The model re-plans with changed arguments: a new intent, with a new
 * key, that waits for its own approval.
 */
class RejectionReachesTheModelTest {
  /** Writes the wrong greeting first; after any refusal of it, writes the right one. */
  static final class ReplanningModel implements ChatModel {
    final List<String> results = new ArrayList<>();
    int calls;

    @Override
    public ChatResponse doChat(ChatRequest request) {
      calls++;
      results.clear();
      for (ChatMessage m : request.messages()) {
        if (m instanceof ToolExecutionResultMessage t) {
          results.add(t.text());
        }
      }
      AiMessage ai =
          switch (results.size()) {
            case 0 -> AiMessage.from(List.of(write("c1", "print('hello')\\n")));
            case 1 -> AiMessage.from(List.of(write("c2", "print('ready')\\n")));
            case 2 ->
                AiMessage.from(
                    List.of(
                        ToolExecutionRequest.builder()
                            .id("c3")
                            .name("run_tests")
                            .arguments("{\"target\":\"unit\"}")
                            .build()));
            default -> AiMessage.from("done");
          };
      return ChatResponse.builder().aiMessage(ai).build();
    }

    private static ToolExecutionRequest write(String id, String content) {
      return ToolExecutionRequest.builder()
          .id(id)
          .name("write_file")
          .arguments("{\"path\":\"app.py\",\"content\":\"" + content + "\"}")
          .build();
    }
  }

  private final RuntimeFixture f = RuntimeFixture.inMemory(18);
  private final TaskSpec task = f.task("write_file");
  private final InMemoryWorkspace ws = f.workspace();
  private final ReplanningModel model = new ReplanningModel();
  private final DurableAgent agent = DurableAgent.builder(model).goal("fix app.py").build();

  @Test
  void aRejectionIsTheToolResultAndTheReplannedWriteNeedsItsOwnApproval() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      assertThat(agent.drive(run, task).kind()).isEqualTo(DriveResult.Kind.WAITING);
      String rejectedKey = run.state().pending().key();
      f.ratchet("approver")
          .deliver(
              dev.ratchet.Ratchet.sign(
                  ApprovalRejection.ofPending(
                      "alice", run.state(), task, "the greeting must say ready", "reject-1"),
                  f.approverKey));

      assertThat(agent.drive(run, task).kind())
          .as("the re-planned write waits for its own approval")
          .isEqualTo(DriveResult.Kind.WAITING);
      assertThat(model.results.get(0))
          .contains("\"outcome\":\"intent_rejected\"")
          .contains("the greeting must say ready")
          .contains("alice");
      assertThat(run.state().pending().action().actionId()).isEqualTo("turn-2.0");
      assertThat(run.state().pending().key()).isNotEqualTo(rejectedKey);
      assertThat(ws.ledger()).isEmpty();

      f.approvePending(run, task, Duration.ofHours(1));
      agent.drive(run, task);
      assertThat(run.state().phase()).isEqualTo(Phase.COMPLETED);
      assertThat(ws.ledger()).hasSize(1);
      assertThat(model.calls).isEqualTo(4);
    }
  }

  @Test
  void anExpiredApprovalIsTheToolResultAndTheWriteIsWithdrawn() {
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      assertThat(agent.drive(run, task).kind()).isEqualTo(DriveResult.Kind.WAITING);
      f.approvePending(run, task, Duration.ofSeconds(5));
      f.clock.advance(Duration.ofSeconds(10));

      assertThat(agent.drive(run, task).kind()).isEqualTo(DriveResult.Kind.WAITING);
      assertThat(model.results.get(0))
          .contains("\"outcome\":\"intent_withdrawn\"")
          .contains("approval_expired");
      assertThat(run.trace().stream().map(e -> e.actionId() + " " + e.outcome()))
          .contains("turn-1.0 intent_withdrawn");
      assertThat(run.state().pending().action().actionId()).isEqualTo("turn-2.0");
      assertThat(ws.ledger()).isEmpty();
    }
  }
}
