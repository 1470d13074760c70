package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.mcp.http.TaskRpc;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Must-show of ADR 0082: a durable task for an approval-gated write ({@code pay_order})
 * survives a SIGKILLed {@code ratchet mcp --http} process. Created by a 2026-07-28 client declaring
 * the tasks extension, the server killed and restarted, approved with {@code ratchet approve}:
 * {@code tasks/get} to the new process returns completed with the service's receipt, and the
 * service holds one payment under the write's key.
 */
class McpTaskProcessTest {
  @TempDir Path dir;
  private ProcessCli cli;
  private ReferenceService ledger;
  private Path task;
  private final List<McpHttpServerProcess> opened = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    cli = new ProcessCli(Files.createDirectories(dir.resolve("work"))).keys();
    ledger = ReferenceService.start(dir.resolve("ledger.db"), 0);
    JsonObject json =
        (JsonObject) Json.parse(Files.readString(Path.of("../examples/http/acme-orders.json")));
    json =
        json.with(
            "connect",
            JsonObject.builder()
                .put("base_url", ledger.uri().toString())
                .put("client_secret_file", ledger.clientSecretFile().toAbsolutePath().toString())
                .build());
    task = dir.resolve("orders.json");
    Files.writeString(task, Canonical.string(json));
  }

  @AfterEach
  void tearDown() {
    opened.forEach(McpHttpServerProcess::close);
    ledger.close();
  }

  private McpHttpServerProcess server() throws Exception {
    McpHttpServerProcess p =
        new McpHttpServerProcess(
            cli,
            "mcp",
            task.toString(),
            "--run-id",
            "tasks-1",
            "--home",
            cli.home().toString(),
            "--http",
            "127.0.0.1:0",
            "--console-url",
            "http://127.0.0.1:8470/",
            "--lease-ttl-ms",
            "3000");
    opened.add(p);
    return p;
  }

  private static String text(JsonObject o, String key) {
    return ((JsonString) o.get(key).orElseThrow()).value();
  }

  private static JsonObject get(TaskRpc rpc, String taskId) throws Exception {
    return rpc.result(
        rpc.call("tasks/get", taskId, JsonObject.builder().put("taskId", taskId).build(), true));
  }

  @Test
  void aTaskForAnApprovalGatedWriteSurvivesAServerRestartAndCompletesOnce() throws Exception {
    ProcessCli.Result issued =
        cli.run(
            "mcp-token",
            "issue",
            "--client",
            "agent",
            "--run",
            "tasks-1",
            "--home",
            cli.home().toString());
    assertThat(issued.exit()).as(issued.all()).isZero();
    String token = issued.out().strip();

    McpHttpServerProcess first = server();
    McpSyncClient legacy = first.client("tasks-1", token);
    McpSchema.CallToolResult order =
        McpHttpServerProcess.call(
            legacy,
            "create_order",
            Map.of(
                "call_id",
                "o-1",
                "account",
                "acme",
                "sku",
                "widget",
                "quantity",
                1,
                "unit_price_cents",
                250));
    @SuppressWarnings("unchecked")
    Map<String, Object> created = (Map<String, Object>) order.structuredContent();
    @SuppressWarnings("unchecked")
    String orderId = ((Map<String, Object>) created.get("result")).get("order_id").toString();

    TaskRpc rpc = new TaskRpc(first.base.resolve("runs/tasks-1/mcp"), token);
    JsonObject pay =
        JsonObject.builder()
            .put("name", "pay_order")
            .put(
                "arguments",
                JsonObject.builder()
                    .put("call_id", "pay-1")
                    .put("account", "acme")
                    .put("order_id", orderId)
                    .put("amount_cents", 250)
                    .build())
            .build();
    JsonObject handle = rpc.result(rpc.call("tools/call", "pay_order", pay, true));
    assertThat(text(handle, "resultType")).as("%s", handle).isEqualTo("task");
    assertThat(text(handle, "status")).isEqualTo("input_required");
    String taskId = text(handle, "taskId");

    first.kill();
    McpHttpServerProcess second = server();
    TaskRpc again = new TaskRpc(second.base.resolve("runs/tasks-1/mcp"), token);
    JsonObject survived = get(again, taskId);
    assertThat(text(survived, "status")).as("%s", survived).isEqualTo("input_required");
    assertThat(text(survived, "statusMessage")).contains("ratchet approve tasks-1");
    assertThat(paid(orderId)).isFalse();

    ProcessCli.Result approved =
        cli.run("approve", "tasks-1", "--home", cli.home().toString(), "--approver", "alice");
    assertThat(approved.exit()).as(approved.all()).isZero();

    JsonObject done = survived;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!"completed".equals(text(done, "status")) && System.nanoTime() < deadline) {
      Thread.sleep(200);
      done = get(again, taskId);
    }
    assertThat(text(done, "status")).as("%s", done).isEqualTo("completed");
    JsonObject structured =
        (JsonObject)
            ((JsonObject) done.get("result").orElseThrow()).get("structuredContent").orElseThrow();
    JsonObject receipt = (JsonObject) structured.get("receipt").orElseThrow();
    String key = text(receipt, "idempotency_key");
    assertThat(paid(orderId)).isTrue();
    assertThat(ledger.effects(key)).as("the service's own count of the payment").isEqualTo(1);
    // Polling again, and a retry of the call by the task's client, change nothing.
    assertThat(text(get(again, taskId), "status")).isEqualTo("completed");
    assertThat(text(rpc(again, pay), "taskId")).isEqualTo(taskId);
    assertThat(ledger.effects(key)).isEqualTo(1);
  }

  private static JsonObject rpc(TaskRpc rpc, JsonObject pay) throws Exception {
    return rpc.result(rpc.call("tools/call", "pay_order", pay, true));
  }

  private boolean paid(String orderId) {
    return ledger.orders().stream()
        .anyMatch(
            o ->
                orderId.equals(((JsonString) o.get("order_id").orElseThrow()).value())
                    && "paid".equals(((JsonString) o.get("status").orElseThrow()).value()));
  }
}
