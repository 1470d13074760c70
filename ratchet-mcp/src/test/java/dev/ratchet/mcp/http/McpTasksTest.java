package dev.ratchet.mcp.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.mcp.McpToolServer;
import dev.ratchet.mcp.RunAccess;
import dev.ratchet.mcp.ServerSettings;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.store.InboxItem;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.RuntimeFixture;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Approval-gated writes as durable tasks over HTTP (ADR 0082), in process over an in-memory run: a
 * client of 2026-07-28 that declares the tasks extension gets a task once the intent is committed;
 * its status follows the run's signed state; an approval is carried out by the server's driver; a
 * cancel withdraws a write still waiting; a client without the extension keeps the call_id
 * contract.
 */
class McpTasksTest {
  @TempDir Path dir;
  private McpHttpServer http;
  private McpToolServer tools;
  private RuntimeFixture f;
  private TaskSpec task;
  private InMemoryWorkspace ws;
  private Run run;
  private TaskRpc rpc;

  @BeforeEach
  void setUp() {
    f = RuntimeFixture.inMemory(82);
    task = f.task("write_file");
    ws = f.workspace();
    run = f.ratchet("mcp-test").start(task, "run-1", ws);
    RunAccess access =
        new HeldRun(
            run,
            () -> f.store.inbox(task.taskId(), "run-1").stream().map(InboxItem::nonce).toList());
    tools =
        new McpToolServer(
            access,
            task,
            ws,
            new ServerSettings(
                "run-1", "ratchet approve run-1 --approver NAME", "http://127.0.0.1:9/", false),
            f.entropy);
    McpTokens tokens = new McpTokens(dir.resolve("mcp-tokens"));
    String token = tokens.issue("agent-7", List.of("run-1"), f.entropy, Instant.EPOCH);
    http = new McpHttpServer("127.0.0.1", 0, tokens, "test").mount("run-1", tools);
    URI base = http.start();
    rpc = new TaskRpc(base.resolve("runs/run-1/mcp"), token);
  }

  @AfterEach
  void tearDown() {
    http.close();
    tools.close();
  }

  private static JsonObject write(String callId, String path) {
    return JsonObject.builder()
        .put("name", "write_file")
        .put(
            "arguments",
            JsonObject.builder()
                .put("call_id", callId)
                .put("path", path)
                .put("content", "x\n")
                .build())
        .build();
  }

  private static String text(JsonObject o, String key) {
    return ((JsonString) o.get(key).orElseThrow()).value();
  }

  private JsonObject awaitStatus(String taskId, String status) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      JsonObject t = rpc.result(rpc.call("tasks/get", taskId, taskParams(taskId), true));
      if (status.equals(text(t, "status")) || System.nanoTime() > deadline) {
        return t;
      }
      Thread.sleep(100);
    }
  }

  private static JsonObject taskParams(String taskId) {
    return JsonObject.builder().put("taskId", taskId).build();
  }

  @Test
  void anApprovalGatedWriteIsATaskCreatedWithItsIntentAndCompletedOnceApproved() throws Exception {
    JsonObject created =
        rpc.result(rpc.call("tools/call", "write_file", write("t-1", "app.py"), true));
    assertThat(text(created, "resultType")).isEqualTo("task");
    String taskId = text(created, "taskId");
    assertThat(taskId).startsWith("rt_").hasSize(35);
    assertThat(text(created, "status")).isEqualTo("input_required");
    // The approval page, as a URL-mode elicitation; the intent is committed and nothing written.
    String inputs = Canonical.string(created.get("inputRequests").orElseThrow());
    assertThat(inputs)
        .contains("\"mode\":\"url\"")
        .contains("http://127.0.0.1:9/runs/run-1/approve");
    assertThat(run.state().pending().action().actionId()).isEqualTo("mcp-t-1");
    // The run's signed record names the authenticated client that asked for the write.
    assertThat(run.cause("mcp-t-1").orElseThrow().body().get("client"))
        .contains(new JsonString("agent-7"));
    assertThat(ws.ledger()).isEmpty();

    JsonObject polled = rpc.result(rpc.call("tasks/get", taskId, taskParams(taskId), true));
    assertThat(text(polled, "resultType")).isEqualTo("complete");
    assertThat(text(polled, "status")).isEqualTo("input_required");
    // A retry of the same call by a task-capable client is the same task, not a second intent.
    JsonObject again =
        rpc.result(rpc.call("tools/call", "write_file", write("t-1", "app.py"), true));
    assertThat(text(again, "taskId")).isEqualTo(taskId);

    f.approvePending(run, task, Duration.ofMinutes(10));
    JsonObject done = awaitStatus(taskId, "completed");
    assertThat(text(done, "status")).as("%s", done).isEqualTo("completed");
    JsonObject result = (JsonObject) done.get("result").orElseThrow();
    JsonObject structured = (JsonObject) result.get("structuredContent").orElseThrow();
    assertThat(structured.get("receipt")).isPresent();
    assertThat(text(structured, "action_id")).isEqualTo("mcp-t-1");
    assertThat(ws.ledger()).hasSize(1);
    // Carried out once: polling again changes nothing.
    assertThat(text(awaitStatus(taskId, "completed"), "status")).isEqualTo("completed");
    assertThat(ws.ledger()).hasSize(1);
  }

  @Test
  void cancellingAWaitingTaskWithdrawsItsIntentTracedWithTheClient() throws Exception {
    JsonObject created =
        rpc.result(rpc.call("tools/call", "write_file", write("c-1", "log.txt"), true));
    String taskId = text(created, "taskId");
    JsonObject ack = rpc.result(rpc.call("tasks/cancel", taskId, taskParams(taskId), true));
    assertThat(text(ack, "resultType")).isEqualTo("complete");

    JsonObject cancelled = rpc.result(rpc.call("tasks/get", taskId, taskParams(taskId), true));
    assertThat(text(cancelled, "status")).isEqualTo("cancelled");
    assertThat(run.state().pending()).isNull();
    TraceEvent withdrawn =
        run.trace().stream()
            .filter(t -> "mcp-c-1".equals(t.actionId()) && "intent_withdrawn".equals(t.outcome()))
            .findFirst()
            .orElseThrow();
    assertThat(text(withdrawn.detail(), "reason")).contains("MCP client agent-7");
    // An approval arriving later finds nothing to approve: nothing is written.
    assertThat(ws.ledger()).isEmpty();
  }

  @Test
  void aClientWithoutTheExtensionKeepsTheCallIdContractAndCannotReadTasks() throws Exception {
    JsonObject plain =
        rpc.result(rpc.call("tools/call", "write_file", write("p-1", "app.py"), false));
    assertThat(plain.get("taskId")).isEmpty();
    JsonObject structured = (JsonObject) plain.get("structuredContent").orElseThrow();
    assertThat(text(structured, "status")).isEqualTo("awaiting_approval");
    // Its intent carries no task: a task-capable retry keeps the plain contract too.
    JsonObject retry =
        rpc.result(rpc.call("tools/call", "write_file", write("p-1", "app.py"), true));
    assertThat(retry.get("taskId")).isEmpty();

    JsonObject refused = rpc.call("tasks/get", "rt_x", taskParams("rt_x"), false);
    assertThat(((JsonObject) refused.get("error").orElseThrow()).get("code").orElseThrow())
        .isEqualTo(Json.parse("-32021"));
    JsonObject unknown = rpc.call("tasks/get", "rt_nope", taskParams("rt_nope"), true);
    JsonValue code = ((JsonObject) unknown.get("error").orElseThrow()).get("code").orElseThrow();
    assertThat(code).isEqualTo(Json.parse("-32602"));
  }
}
