package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.mcp.http.TaskRpc;
import dev.ratchet.testkit.LocalPostgresSchema;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code ratchet mcp --http} processes on one PostgreSQL store serving the same run (the local
 * service, a schema of its own; required when {@code CI=true}): a call_id is executed once, by
 * whichever holds the run's lease, however the calls reach the two servers.
 */
class McpHttpPostgresTest {
  @RegisterExtension final LocalPostgresSchema pg = new LocalPostgresSchema("mcp_http");

  @TempDir Path dir;
  private ReferenceService ledger;
  private McpHttpServerProcess a;
  private McpHttpServerProcess b;

  @AfterEach
  void tearDown() {
    for (McpHttpServerProcess p : new McpHttpServerProcess[] {a, b}) {
      if (p != null) {
        p.close();
      }
    }
    if (ledger != null) {
      ledger.close();
    }
  }

  private static Map<String, Object> order(String callId) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("call_id", callId);
    m.put("account", "acme");
    m.put("sku", "pg-" + callId);
    m.put("quantity", 1);
    m.put("unit_price_cents", 100);
    return m;
  }

  private long orders(String callId) {
    return ledger.orders().stream()
        .filter(o -> ("pg-" + callId).equals(((JsonString) o.get("sku").orElseThrow()).value()))
        .count();
  }

  @SuppressWarnings("unchecked")
  private static Object status(McpSchema.CallToolResult r) {
    return ((Map<String, Object>) r.structuredContent()).get("status");
  }

  @Test
  void twoServersOnOneStoreNeverExecuteACallIdTwice() throws Exception {
    ProcessCli cli = new ProcessCli(Files.createDirectories(dir.resolve("work"))).keys();
    cli.env.put("RATCHET_PG_USER", LocalPostgresSchema.ADMIN);
    cli.env.put("RATCHET_PG_SCHEMA", pg.schema());
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
    Path task = dir.resolve("orders.json");
    Files.writeString(task, Canonical.string(json));
    ProcessCli.Result issued =
        cli.run(
            "mcp-token",
            "issue",
            "--client",
            "agent",
            "--run",
            "pg-1",
            "--home",
            cli.home().toString());
    assertThat(issued.exit()).as(issued.all()).isZero();
    String token = issued.out().strip();
    List<String> args =
        List.of(
            "mcp",
            task.toString(),
            "--run-id",
            "pg-1",
            "--home",
            cli.home().toString(),
            "--store=" + LocalPostgresSchema.URL,
            "--http",
            "127.0.0.1:0",
            "--lease-ttl-ms",
            "3000");
    a = new McpHttpServerProcess(cli, args.toArray(String[]::new));
    b = new McpHttpServerProcess(cli, args.toArray(String[]::new));
    McpSyncClient ca = a.client("pg-1", token);
    McpSyncClient cb = b.client("pg-1", token);

    // One behind the other: the second server answers the first's call from the run's records.
    McpSchema.CallToolResult first = McpHttpServerProcess.call(ca, "create_order", order("c1"));
    assertThat(first.isError()).as("%s", first).isFalse();
    McpSchema.CallToolResult again = McpHttpServerProcess.call(cb, "create_order", order("c1"));
    assertThat(again.isError()).as("%s", again).isFalse();
    assertThat(status(again)).isEqualTo("already_done");
    assertThat(orders("c1")).isEqualTo(1);

    // Both at once, the same call_id: one executes, the other answers it; the service counts one.
    CompletableFuture<McpSchema.CallToolResult> viaA =
        CompletableFuture.supplyAsync(
            () -> McpHttpServerProcess.call(ca, "create_order", order("c2")));
    CompletableFuture<McpSchema.CallToolResult> viaB =
        CompletableFuture.supplyAsync(
            () -> McpHttpServerProcess.call(cb, "create_order", order("c2")));
    McpSchema.CallToolResult ra = viaA.get(90, TimeUnit.SECONDS);
    McpSchema.CallToolResult rb = viaB.get(90, TimeUnit.SECONDS);
    assertThat(ra.isError()).as("%s", ra).isFalse();
    assertThat(rb.isError()).as("%s", rb).isFalse();
    assertThat(List.of(status(ra), status(rb))).contains("already_done");
    assertThat(orders("c2")).isEqualTo(1);

    // A durable task created through one server is the same task from the other (ADR 0082): its
    // state is the run's, and the approved payment happens once, whichever server carries it out.
    @SuppressWarnings("unchecked")
    Map<String, Object> placed =
        (Map<String, Object>) ((Map<String, Object>) first.structuredContent()).get("result");
    JsonObject pay =
        JsonObject.builder()
            .put("name", "pay_order")
            .put(
                "arguments",
                JsonObject.builder()
                    .put("call_id", "pay-pg")
                    .put("account", "acme")
                    .put("order_id", placed.get("order_id").toString())
                    .put("amount_cents", 100)
                    .build())
            .build();
    TaskRpc viaTasksA = new TaskRpc(a.base.resolve("runs/pg-1/mcp"), token);
    TaskRpc viaTasksB = new TaskRpc(b.base.resolve("runs/pg-1/mcp"), token);
    JsonObject handle = viaTasksA.result(viaTasksA.call("tools/call", "pay_order", pay, true));
    String taskId = ((JsonString) handle.get("taskId").orElseThrow()).value();
    JsonObject get = JsonObject.builder().put("taskId", taskId).build();
    JsonObject fromB = viaTasksB.result(viaTasksB.call("tasks/get", taskId, get, true));
    assertThat(fromB.get("status")).contains(new JsonString("working"));
    ProcessCli.Result approved =
        cli.run(
            "approve",
            "pg-1",
            "--home",
            cli.home().toString(),
            "--store=" + LocalPostgresSchema.URL,
            "--approver",
            "alice");
    assertThat(approved.exit()).as(approved.all()).isZero();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (!fromB.get("status").orElseThrow().equals(new JsonString("completed"))
        && System.nanoTime() < deadline) {
      Thread.sleep(200);
      fromB = viaTasksB.result(viaTasksB.call("tasks/get", taskId, get, true));
    }
    JsonObject fromA = viaTasksA.result(viaTasksA.call("tasks/get", taskId, get, true));
    assertThat(fromB.get("status")).as("%s", fromB).contains(new JsonString("completed"));
    assertThat(fromA.get("status")).as("%s", fromA).contains(new JsonString("completed"));
    String key =
        ((JsonString)
                ((JsonObject)
                        ((JsonObject)
                                ((JsonObject) fromA.get("result").orElseThrow())
                                    .get("structuredContent")
                                    .orElseThrow())
                            .get("receipt")
                            .orElseThrow())
                    .get("idempotency_key")
                    .orElseThrow())
            .value();
    assertThat(ledger.effects(key)).as("the service's own count of the payment").isEqualTo(1);
  }
}
