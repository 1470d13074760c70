package dev.ratchet.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.ratchet.Run;
import dev.ratchet.adapter.ArgumentSchema;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.RuntimeFixture;
import dev.ratchet.testkit.SimulatedCrash;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A read-only user tool needs no key and no receipt: a crash inside it is recovered by running it
 * again, and the write the same response asked for still happens once. The tool is offered to the
 * model as a LangChain4j tool with its JSON-schema parameters.
 */
class ReadOnlyToolTest {
  private final RuntimeFixture f = RuntimeFixture.inMemory(71);
  private final InMemoryWorkspace ws = f.workspace();
  private final AtomicInteger reads = new AtomicInteger();
  private final AtomicInteger decisions = new AtomicInteger();
  private final List<String> toolsSeen = new java.util.ArrayList<>();

  @Test
  void aReadOnlyToolRerunsFreelyAfterACrashInsideIt() {
    TaskSpec task = task(f.task());
    ArgumentSchema schema = ArgumentSchema.builder().text("city", 32, "which city").build();
    EnvironmentAdapter crashing = adapter(schema, true);
    Run run = f.ratchet("w1").start(task, "run-1", crashing);
    assertThatThrownBy(() -> agent().drive(run, task)).isInstanceOf(SimulatedCrash.class);
    f.clock.advance(RuntimeFixture.LEASE_TTL.plusSeconds(1));
    try (Run again = f.ratchet("w2").resume(task, "run-1", adapter(schema, false))) {
      agent().drive(again, task);
      assertThat(again.state().phase()).isEqualTo(Phase.COMPLETED);
    }
    assertThat(reads.get()).as("the read-only tool ran again").isEqualTo(2);
    assertThat(ws.ledger()).hasSize(1);
    assertThat(toolsSeen).contains("weather");
    // Nothing of the first response was committed before the crash: it may be asked once more.
    assertThat(decisions.get()).isLessThanOrEqualTo(3);
  }

  private EnvironmentAdapter adapter(ArgumentSchema schema, boolean crash) {
    return UserTools.on(ws)
        .readOnly(
            "weather",
            schema,
            a -> {
              reads.incrementAndGet();
              if (crash) {
                throw new SimulatedCrash(CrashPoint.BEFORE_PROPOSAL);
              }
              return JsonObject.builder().put("sky", "clear").build();
            })
        .adapter();
  }

  private DurableAgent agent() {
    return DurableAgent.builder(new Model()).goal("check the weather, then fix app.py").build();
  }

  private static TaskSpec task(TaskSpec t) {
    Set<String> perms = new java.util.HashSet<>(t.permissions());
    perms.add(UserTools.READ_PERMISSION);
    Set<String> kinds = new java.util.HashSet<>(t.actionKinds());
    kinds.add("weather");
    Set<String> targets = new java.util.HashSet<>(t.targets());
    targets.add("weather");
    return new TaskSpec(
        t.taskId(),
        t.taskVersion(),
        t.policyId(),
        t.policyVersion(),
        t.adapter(),
        perms,
        kinds,
        targets,
        t.approvalRequired(),
        t.budgets(),
        t.environment(),
        t.verifier());
  }

  /** Weather, the fix and the tests in one response; then done. */
  private final class Model implements ChatModel {
    @Override
    public ChatResponse doChat(ChatRequest request) {
      request.toolSpecifications().forEach(t -> toolsSeen.add(t.name()));
      decisions.incrementAndGet();
      boolean tested =
          request.messages().stream()
              .anyMatch(
                  m ->
                      m instanceof ToolExecutionResultMessage t
                          && t.toolName().equals("run_tests"));
      AiMessage ai =
          tested
              ? AiMessage.from("done")
              : AiMessage.from(
                  List.of(
                      call("c-weather", "weather", "{\"city\":\"Oslo\"}"),
                      call(
                          "c-write",
                          "write_file",
                          "{\"path\":\"app.py\",\"content\":\"print('ready')\\n\"}"),
                      call("c-test", "run_tests", "{\"target\":\"unit\"}")));
      return ChatResponse.builder().aiMessage(ai).id("r").modelName("scripted").build();
    }

    private ToolExecutionRequest call(String id, String name, String args) {
      return ToolExecutionRequest.builder().id(id).name(name).arguments(args).build();
    }
  }
}
