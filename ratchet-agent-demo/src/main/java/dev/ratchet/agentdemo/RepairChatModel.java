package dev.ratchet.agentdemo;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import java.nio.file.Path;
import java.util.List;

/**
 * The repairing agent's script: run the tests ("diagnose"); on the failure, write the fixed app.py
 * (conditional on the broken file's digest) and run the tests again, two tool calls in one response
 * ("repair"); then answer ("finish").
 */
final class RepairChatModel extends DemoChatModel {
  RepairChatModel(Path calls) {
    super("scripted-repair", calls);
  }

  @Override
  Decision decide(List<ChatMessage> messages) {
    boolean wrote = result(messages, "write_file").isPresent();
    if (wrote) {
      return new Decision("finish", AiMessage.from("done: app.py fixed and the tests pass"));
    }
    if (result(messages, "run_tests").isEmpty()) {
      return new Decision(
          "diagnose",
          AiMessage.from(List.of(call("call-test-1", "run_tests", "{\"target\":\"unit\"}"))));
    }
    String write =
        JsonObject.builder()
            .put("path", AgentDemoSetup.APP)
            .put("content", AgentDemoSetup.FIXED)
            .put("expected_sha256", Canonical.sha256Hex(AgentDemoSetup.BROKEN))
            .build()
            .toString();
    return new Decision(
        "repair",
        AiMessage.from(
            List.of(
                call("call-write", "write_file", write),
                call("call-test-2", "run_tests", "{\"target\":\"unit\"}"))));
  }
}
