package dev.ratchet.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.ratchet.Run;
import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.ArgumentSchema;
import dev.ratchet.langchain4j.internal.Messages;
import dev.ratchet.langchain4j.internal.ToolSpecs;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.testkit.RuntimeFixture;
import dev.ratchet.worker.DriveContext;
import dev.ratchet.worker.DriveResult;
import dev.ratchet.worker.Driver;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** The driver is found by ServiceLoader and drives a claimed run; tools carry the schema. */
class LangChain4jDriverTest {
  @Test
  void theWorkerFindsTheDriverByNameAndItDrivesTheRunToCompletion() {
    Driver found =
        ServiceLoader.load(Driver.class).stream()
            .map(ServiceLoader.Provider::get)
            .filter(d -> d.name().equals(LangChain4jDriver.NAME))
            .findFirst()
            .orElseThrow();
    assertThat(found).isInstanceOf(LangChain4jDriver.class);

    RuntimeFixture f = RuntimeFixture.inMemory(11);
    TaskSpec task = f.task();
    ScriptedChatModel model = new ScriptedChatModel();
    AgentSetup setup =
        new AgentSetup() {
          @Override
          public boolean handles(TaskSpec t) {
            return t.taskId().equals(task.taskId());
          }

          @Override
          public DurableAgent agent(TaskSpec t) {
            return DurableAgent.builder(model).goal("fix app.py").build();
          }
        };
    try (Run run = f.ratchet("w1").start(task, "run-1", f.workspace())) {
      DriveResult r =
          new LangChain4jDriver(List.of(setup)).drive(new DriveContext(run, task, () -> false));
      assertThat(r.kind()).isEqualTo(DriveResult.Kind.ENDED);
      assertThat(run.state().phase()).isEqualTo(Phase.COMPLETED);
    }
  }

  @Test
  void aToolsParametersAreTheKindsArgumentSchemaWithoutAnyKey() {
    ArgumentSchema schema =
        ArgumentSchema.builder()
            .text("account", 64, "[a-z]+", "the account")
            .integer("amount_cents", 0, 100, null)
            .build();
    ToolSpecification tool =
        ToolSpecs.of(
            ActionSpec.receipted("pay", "ledger.write", "irreversible_write", schema, a -> "t"));
    assertThat(tool.name()).isEqualTo("pay");
    assertThat(tool.parameters().required()).containsExactly("account", "amount_cents");
    assertThat(tool.parameters().additionalProperties()).isFalse();
    assertThat(tool.parameters().properties()).containsOnlyKeys("account", "amount_cents");
    assertThat(((JsonRawSchema) tool.parameters().properties().get("account")).schema())
        .contains("\"pattern\":\"^(?:[a-z]+)$\"");
    assertThat(tool.description()).contains("receipted");
  }

  @Test
  void memoryRecordsDecodeToTheSameMessages() {
    var ai =
        dev.langchain4j.data.message.AiMessage.from(
            List.of(
                dev.langchain4j.agent.tool.ToolExecutionRequest.builder()
                    .id("c1")
                    .name("run_tests")
                    .arguments("{\"target\":\"unit\"}")
                    .build()));
    assertThat(Messages.decode(Messages.ai(ai), "m")).isEqualTo(ai);
    assertThat(Messages.decode(Messages.toolResult("c1", "run_tests", "ok"), "m"))
        .isEqualTo(
            dev.langchain4j.data.message.ToolExecutionResultMessage.from("c1", "run_tests", "ok"));
  }
}
