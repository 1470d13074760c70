package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ratchet mcp --http} as a real process serving two runs, driven by the MCP SDK's own
 * streamable-HTTP client with bearer tokens, against the reference ledger service (ADR 0081).
 */
class McpHttpProcessTest {
  private static final String INIT =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
          + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
          + "\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";

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

  private McpHttpServerProcess server(String... extra) throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "mcp",
                task.toString(),
                "--run-id",
                "http-1",
                "--run-id",
                "http-2",
                "--home",
                cli.home().toString(),
                "--http",
                "127.0.0.1:0",
                "--lease-ttl-ms",
                "3000"));
    args.addAll(List.of(extra));
    McpHttpServerProcess p = new McpHttpServerProcess(cli, args.toArray(String[]::new));
    opened.add(p);
    return p;
  }

  private String issue(String client, String... runs) {
    List<String> args =
        new ArrayList<>(
            List.of("mcp-token", "issue", "--client", client, "--home", cli.home().toString()));
    for (String r : runs) {
      args.addAll(List.of("--run", r));
    }
    ProcessCli.Result r = cli.run(args.toArray(String[]::new));
    assertThat(r.exit()).as(r.all()).isZero();
    return r.out().strip();
  }

  private static Map<String, Object> order(String callId, String sku) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("call_id", callId);
    m.put("account", "acme");
    m.put("sku", sku);
    m.put("quantity", 2);
    m.put("unit_price_cents", 125);
    return m;
  }

  private long orders(String sku) {
    return ledger.orders().stream()
        .filter(o -> sku.equals(((JsonString) o.get("sku").orElseThrow()).value()))
        .count();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> structured(McpSchema.CallToolResult r) {
    return (Map<String, Object>) r.structuredContent();
  }

  private static HttpResponse<String> post(URI uri, String token, String body) throws Exception {
    return post(uri, token, body, null);
  }

  private static HttpResponse<String> post(URI uri, String token, String body, String origin)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    if (origin != null) {
      b.header("Origin", origin);
    }
    return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * The Must-show: the server is SIGKILLed after the service took the write; the client re-issues
   * the call (a new request, the same call_id) to a restarted server and gets the original outcome;
   * the service counts one order. The canary, a fresh call_id, counts two.
   */
  @Test
  void aWriteReissuedToARestartedServerAfterTheServiceTookItHappensOnce() throws Exception {
    String token = issue("agent", "http-1");
    McpHttpServerProcess doomed = server("--crash-at", "ADAPTER_AFTER_EXTERNAL_COMMIT");
    McpSyncClient first = doomed.client("http-1", token);
    CompletableFuture<McpSchema.CallToolResult> pending =
        CompletableFuture.supplyAsync(
            () -> McpHttpServerProcess.call(first, "create_order", order("w-1", "bolt")));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (doomed.line("CRASH ") == null) {
      assertThat(System.nanoTime()).as("no crash point reached").isLessThan(deadline);
      assertThat(pending.isDone()).as("the call ended without reaching its crash point").isFalse();
      Thread.sleep(20);
    }
    doomed.kill();
    assertThat(orders("bolt")).as("the service took the write").isEqualTo(1);
    assertThatThrownBy(() -> pending.get(60, TimeUnit.SECONDS))
        .as("the call cannot have answered: its server died");

    McpHttpServerProcess again = server();
    McpSyncClient retry = again.client("http-1", token);
    McpSchema.CallToolResult r =
        McpHttpServerProcess.call(retry, "create_order", order("w-1", "bolt"));
    assertThat(r.isError()).as("%s", r).isFalse();
    assertThat(structured(r).get("status")).isIn("already_done", "reconciled");
    @SuppressWarnings("unchecked")
    Map<String, Object> result = (Map<String, Object>) structured(r).get("result");
    String orderId = ((JsonString) ledger.orders().get(0).get("order_id").orElseThrow()).value();
    assertThat(result).containsEntry("order_id", orderId);
    assertThat(orders("bolt")).isEqualTo(1);

    McpSchema.CallToolResult canary =
        McpHttpServerProcess.call(retry, "create_order", order("w-2", "bolt"));
    assertThat(structured(canary)).containsEntry("status", "executed");
    assertThat(orders("bolt")).isEqualTo(2);
  }

  /**
   * One server, two runs, each at its own endpoint: a token reaches only the runs it is scoped to.
   * 401 without a token (with WWW-Authenticate naming the protected resource metadata) and with an
   * unknown or revoked one, 403 with a token of another run; nothing is recorded for either.
   */
  @Test
  void tokensAreScopedToRunsAndRefusedRequestsChangeNothing() throws Exception {
    String agent1 = issue("agent-1", "http-1");
    String agent2 = issue("agent-2", "http-2");
    McpHttpServerProcess server = server();
    URI run1 = server.base.resolve("runs/http-1/mcp");
    String call =
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":"
            + "\"create_order\",\"arguments\":{\"call_id\":\"x\",\"account\":\"acme\","
            + "\"sku\":\"nope\",\"quantity\":1,\"unit_price_cents\":1}}}";

    HttpResponse<String> none = post(run1, null, INIT);
    assertThat(none.statusCode()).isEqualTo(401);
    String challenge = none.headers().firstValue("WWW-Authenticate").orElseThrow();
    assertThat(challenge).startsWith("Bearer ").contains("resource_metadata=");
    assertThat(none.headers().firstValue("Server")).as("no container version").isEmpty();
    String metadataUrl = challenge.replaceAll(".*resource_metadata=\"([^\"]+)\".*", "$1");
    HttpResponse<String> metadata =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(metadataUrl)).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(metadata.statusCode()).isEqualTo(200);
    JsonObject md = (JsonObject) Json.parse(metadata.body());
    assertThat(md.get("resource").orElseThrow()).isEqualTo(new JsonString(run1.toString()));

    assertThat(post(run1, null, call).statusCode()).isEqualTo(401);
    assertThat(post(run1, "rmcp_" + "A".repeat(43), call).statusCode()).isEqualTo(401);
    HttpResponse<String> other = post(run1, agent2, call);
    assertThat(other.statusCode()).isEqualTo(403);
    assertThat(other.headers().firstValue("WWW-Authenticate").orElseThrow())
        .contains("insufficient_scope");
    assertThat(other.body()).doesNotContain(agent2);
    assertThat(orders("nope")).isZero();

    // Each token works at its own run's endpoint, on one server process.
    // (A read, first: the two runs share the ledger account, so a write by one is drift to the
    // other, which freezes it for review.)
    McpSyncClient c2 = server.client("http-2", agent2);
    McpSchema.CallToolResult r2 =
        McpHttpServerProcess.call(c2, "get_account", Map.of("account", "acme"));
    assertThat(structured(r2)).containsEntry("status", "read").containsEntry("run_id", "http-2");

    McpSyncClient c1 = server.client("http-1", agent1);
    assertThat(c1.listTools().tools())
        .extracting(McpSchema.Tool::name)
        .contains("create_order", "pay_order");
    McpSchema.CallToolResult r1 =
        McpHttpServerProcess.call(c1, "create_order", order("a-1", "gear"));
    assertThat(structured(r1))
        .containsEntry("status", "executed")
        .containsEntry("run_id", "http-1");
    assertThat(orders("gear")).isEqualTo(1);
    // Nothing of the refused calls is in either run's trace; the accepted ones are.
    ProcessCli.Result trace = cli.run("trace", "http-1", "--home", cli.home().toString(), "--json");
    assertThat(trace.exit()).as(trace.all()).isZero();
    assertThat(trace.out()).contains("mcp-a-1").doesNotContain("mcp-x").doesNotContain("nope");

    // A browser page (any Origin) is refused even with a valid token: DNS rebinding.
    assertThat(post(run1, agent1, INIT, "http://evil.example").statusCode()).isEqualTo(403);

    // A revoked token is refused at once, by the running server.
    assertThat(cli.run("mcp-token", "revoke", "agent-1", "--home", cli.home().toString()).exit())
        .isZero();
    assertThat(post(run1, agent1, INIT).statusCode()).isEqualTo(401);
    // The home holds the digest, never the token; no output of the server shows it.
    String stored = Files.readString(cli.home().resolve("mcp-tokens").resolve("agent-2.json"));
    assertThat(stored).doesNotContain(agent2).contains("token_sha256");
    assertThat(server.started.stderr() + server.started.stdout())
        .doesNotContain(agent1)
        .doesNotContain(agent2);
  }

  /**
   * One endpoint, both protocol revisions: the SDK's legacy client negotiates 2025-11-25, its newer
   * client speaks 2026-07-28; both list the run's tools and call them under one call_id contract.
   */
  @Test
  void clientsOfBothProtocolRevisionsListAndCallTools() throws Exception {
    String token = issue("agent", "http-1");
    McpHttpServerProcess server = server();

    McpSyncClient legacy = server.client("http-1", token);
    assertThat(legacy.getCurrentInitializationResult().protocolVersion()).isEqualTo("2025-11-25");
    assertThat(legacy.listTools().tools())
        .extracting(McpSchema.Tool::name)
        .containsExactlyInAnyOrder("create_order", "pay_order", "get_account", "check_account");
    McpSchema.CallToolResult first =
        McpHttpServerProcess.call(legacy, "create_order", order("both-1", "cog"));
    assertThat(structured(first)).containsEntry("status", "executed");

    io.modelcontextprotocol.modern.client.McpSyncClient modern =
        server.modernClient("http-1", token);
    assertThat(modern.listTools().list().tools())
        .extracting(io.modelcontextprotocol.modern.McpSchema.Tool::name)
        .containsExactlyInAnyOrder("create_order", "pay_order", "get_account", "check_account");
    // The newer client's retry of the legacy client's call is the same intent: answered, not
    // redone.
    io.modelcontextprotocol.modern.McpSchema.CallToolResult retry =
        modern.tool("create_order").arguments(order("both-1", "cog")).call();
    assertThat(retry.isError()).as("%s", retry).isFalse();
    assertThat(retry.structuredContent().toString()).contains("status=already_done");
    io.modelcontextprotocol.modern.McpSchema.CallToolResult second =
        modern.tool("create_order").arguments(order("both-2", "cog")).call();
    assertThat(second.structuredContent().toString()).contains("status=executed");
    assertThat(orders("cog")).isEqualTo(2);
  }
}
