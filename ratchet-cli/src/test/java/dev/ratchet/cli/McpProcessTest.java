package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.seam.CrashPoint;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code ratchet mcp} as a real process, driven by the MCP SDK's own client, against the reference
 * ledger service: the ledger counts every order and payment the agent intended exactly once, across
 * a SIGKILLed server in each crash window of a write (ADR 0080).
 */
class McpProcessTest {
  @TempDir Path dir;
  private ProcessCli cli;
  private ReferenceService ledger;
  private Path task;
  private final List<McpClientProcess> opened = new ArrayList<>();

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
    opened.forEach(McpClientProcess::close);
    ledger.close();
  }

  private McpClientProcess server(String runId, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "mcp",
                task.toString(),
                "--run-id",
                runId,
                "--home",
                cli.home().toString(),
                "--lease-ttl-ms",
                "3000"));
    args.addAll(List.of(extra));
    McpClientProcess p = new McpClientProcess(args);
    opened.add(p);
    return p;
  }

  private static Map<String, Object> order(String callId, String sku) {
    Map<String, Object> m = new java.util.LinkedHashMap<>();
    if (callId != null) {
      m.put("call_id", callId);
    }
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

  @Test
  void toolsAreThePermittedKindsWithSchemasTitlesAndTruthfulHints() {
    McpClientProcess p = server("mcp-tools");
    List<McpSchema.Tool> tools = p.client.listTools().tools();
    assertThat(tools)
        .extracting(McpSchema.Tool::name)
        .containsExactlyInAnyOrder("create_order", "pay_order", "get_account", "check_account");
    McpSchema.Tool pay = tools.stream().filter(t -> t.name().equals("pay_order")).findFirst().get();
    assertThat(pay.title()).isEqualTo("Pay order");
    assertThat(pay.description()).contains("NEEDS A HUMAN APPROVAL").contains("call_id");
    assertThat(pay.annotations().readOnlyHint()).isFalse();
    assertThat(pay.annotations().destructiveHint()).isTrue();
    assertThat(pay.annotations().idempotentHint()).isTrue();
    assertThat(pay.annotations().openWorldHint()).isTrue();
    assertThat(pay.inputSchema().get("required").toString()).contains("call_id");
    McpSchema.Tool create =
        tools.stream().filter(t -> t.name().equals("create_order")).findFirst().get();
    assertThat(create.description()).doesNotContain("NEEDS A HUMAN APPROVAL");
    McpSchema.Tool read =
        tools.stream().filter(t -> t.name().equals("get_account")).findFirst().get();
    assertThat(read.annotations().readOnlyHint()).isTrue();
    assertThat(read.annotations().destructiveHint()).isFalse();
    // The adapter's argument schema, without a call_id (reads are harmless to repeat).
    assertThat(read.inputSchema().get("required").toString())
        .contains("account")
        .doesNotContain("call_id");
    assertThat(create.inputSchema().get("properties").toString())
        .contains("sku=")
        .contains("unit_price_cents=");
  }

  @Test
  void aRetryReturnsTheOutcomeWhileTwoIntendedCallsBothHappenAndAReusedIdIsRefused() {
    McpClientProcess p = server("mcp-dedupe");
    McpSchema.CallToolResult first = p.call("create_order", order("c1", "bolt"));
    assertThat(first.isError()).isFalse();
    assertThat(structured(first)).containsEntry("status", "executed").containsKey("receipt");
    McpSchema.CallToolResult retry = p.call("create_order", order("c1", "bolt"));
    assertThat(structured(retry)).containsEntry("status", "already_done");
    assertThat(structured(retry).get("receipt")).isEqualTo(structured(first).get("receipt"));
    assertThat(orders("bolt")).isEqualTo(1);

    McpSchema.CallToolResult second = p.call("create_order", order("c2", "bolt"));
    assertThat(structured(second)).containsEntry("status", "executed");
    assertThat(orders("bolt")).isEqualTo(2);

    McpSchema.CallToolResult changed = p.call("create_order", order("c1", "nut"));
    assertThat(changed.isError()).isTrue();
    assertThat(structured(changed)).containsEntry("error_code", "IDEMPOTENCY_CONFLICT");
    assertThat(orders("nut")).isZero();

    McpSchema.CallToolResult noId = p.call("create_order", order(null, "nut"));
    // A read and a verification change nothing and return what they saw.
    McpSchema.CallToolResult account = p.call("get_account", Map.of("account", "acme"));
    assertThat(structured(account)).containsEntry("status", "read");
    assertThat(structured(account).get("result").toString()).contains("orders=2");
    McpSchema.CallToolResult check = p.call("check_account", Map.of("account", "acme"));
    assertThat(check.isError()).as("%s", check).isFalse();
    assertThat(structured(check)).containsEntry("status", "verify");

    // A policy refusal (a target outside the task's allowlist) is a tool error with its code.
    Map<String, Object> elsewhere = order("c3", "bolt");
    elsewhere.put("account", "globex");
    McpSchema.CallToolResult refused = p.call("create_order", elsewhere);
    assertThat(refused.isError()).isTrue();
    assertThat(structured(refused)).containsEntry("error_code", "PERMISSION");
    assertThat(orders("bolt")).isEqualTo(2);

    // The SDK checks the input schema (call_id is required) before the call reaches the run.
    assertThat(noId.isError()).isTrue();
    assertThat(noId.content().toString()).contains("call_id");
    assertThat(orders("nut")).isZero();
  }

  /** The server dies for real (SIGKILL) in each window of a write; the retried call counts once. */
  @ParameterizedTest
  @EnumSource(
      value = CrashPoint.class,
      names = {
        "BEFORE_PROPOSAL",
        "AFTER_INTENT_COMMIT",
        "ADAPTER_AFTER_EXTERNAL_COMMIT",
        "BEFORE_RECEIPT_COMMIT",
        "AFTER_RECEIPT_COMMIT"
      })
  void aWriteRetriedAfterTheServerIsKilledInAnyWindowHappensExactlyOnce(CrashPoint point)
      throws Exception {
    String run = "mcp-" + point.name().toLowerCase(Locale.ROOT).replace('_', '-');
    String sku = "sku-" + point.ordinal();
    McpClientProcess doomed = server(run, "--crash-at", point.name());
    assertThat(doomed.callUntilCrash("create_order", order("w-1", sku))).contains(point.name());
    doomed.close();

    McpClientProcess again = server(run);
    McpSchema.CallToolResult r = again.call("create_order", order("w-1", sku));
    assertThat(r.isError()).as("%s", r).isFalse();
    assertThat(structured(r).get("status")).isIn("already_done", "executed", "reconciled");
    assertThat(orders(sku)).isEqualTo(1);
    // and a further retry still finds the same one
    assertThat(structured(again.call("create_order", order("w-1", sku))))
        .containsEntry("status", "already_done");
    assertThat(orders(sku)).isEqualTo(1);
  }

  /**
   * The canary: a client that does not reuse its call_id on retry gets the duplicate it asked for.
   */
  @Test
  void canaryAClientThatDropsItsCallIdOnRetryWritesTwice() throws Exception {
    McpClientProcess doomed = server("mcp-canary", "--crash-at", "AFTER_RECEIPT_COMMIT");
    doomed.callUntilCrash("create_order", order("first-try", "canary"));
    doomed.close();
    McpClientProcess again = server("mcp-canary");
    McpSchema.CallToolResult r = again.call("create_order", order("fresh-id-on-retry", "canary"));
    assertThat(structured(r)).containsEntry("status", "executed");
    assertThat(orders("canary")).isEqualTo(2);
  }

  @Test
  void anApprovalGatedWriteWaitsForTheOperatorAndCompletesThroughMcp() {
    McpClientProcess p = server("mcp-approval");
    McpSchema.CallToolResult created = p.call("create_order", order("o1", "gizmo"));
    @SuppressWarnings("unchecked")
    Map<String, Object> result = (Map<String, Object>) structured(created).get("result");
    String orderId = result.get("order_id").toString();
    Map<String, Object> pay =
        Map.of("call_id", "pay-1", "account", "acme", "order_id", orderId, "amount_cents", 250);

    McpSchema.CallToolResult waiting = p.call("pay_order", pay);
    assertThat(waiting.isError()).isFalse();
    assertThat(structured(waiting))
        .containsEntry("status", "awaiting_approval")
        .containsEntry("call_id", "pay-1");
    assertThat(structured(waiting).get("approve_command").toString())
        .startsWith("ratchet approve mcp-approval");
    // Asking again before anyone approved changes nothing.
    assertThat(structured(p.call("pay_order", pay))).containsEntry("status", "awaiting_approval");
    assertThat(paid(orderId)).isFalse();

    ProcessCli.Result approved =
        cli.run("approve", "mcp-approval", "--home", cli.home().toString(), "--approver", "alice");
    assertThat(approved.exit()).as(approved.all()).isZero();

    McpSchema.CallToolResult done = p.call("pay_order", pay);
    assertThat(done.isError()).as("%s", done).isFalse();
    // Executed by this call, or already by the resume that follows a lapsed lease (both consume
    // the operator's approval from the inbox): either way once, with the service's receipt.
    assertThat(structured(done).get("status")).isIn("executed", "already_done");
    assertThat(structured(done)).containsKey("receipt");
    assertThat(paid(orderId)).isTrue();
    // Changed arguments under the same call_id are a new intent: refused, nothing paid again.
    Map<String, Object> other = new java.util.HashMap<>(pay);
    other.put("amount_cents", 1);
    McpSchema.CallToolResult conflict = p.call("pay_order", other);
    assertThat(conflict.isError()).isTrue();
    assertThat(structured(conflict)).containsEntry("error_code", "IDEMPOTENCY_CONFLICT");
  }

  /**
   * Issue 39: the MCP server's trust roots are live. Carol's approver key is made and trusted after
   * the server started; the approval she signs is consumed by the next call, with no restart.
   */
  @Test
  void anApproverTrustedAfterTheServerStartedIsHonouredWithoutARestart() {
    McpClientProcess p = server("mcp-live");
    McpSchema.CallToolResult created = p.call("create_order", order("o1", "gadget"));
    @SuppressWarnings("unchecked")
    Map<String, Object> result = (Map<String, Object>) structured(created).get("result");
    String orderId = result.get("order_id").toString();
    Map<String, Object> pay =
        Map.of("call_id", "pay-1", "account", "acme", "order_id", orderId, "amount_cents", 250);
    assertThat(structured(p.call("pay_order", pay))).containsEntry("status", "awaiting_approval");

    String home = cli.home().toString();
    assertThat(
            cli.run("keys", "generate", "--home", home, "--role", "approver", "--name", "carol")
                .exit())
        .isZero();
    ProcessCli.Result trusted =
        cli.run(
            "keys",
            "trust",
            "--home",
            home,
            "--role",
            "approver",
            cli.home().resolve("identities/approver/carol.pub").toString());
    assertThat(trusted.exit()).as(trusted.all()).isZero();
    ProcessCli.Result approved =
        cli.run("approve", "mcp-live", "--home", home, "--approver", "carol");
    assertThat(approved.exit()).as(approved.all()).isZero();

    McpSchema.CallToolResult done = p.call("pay_order", pay);
    assertThat(structured(done).get("status")).as("%s", done).isIn("executed", "already_done");
    assertThat(paid(orderId)).isTrue();
  }

  /**
   * Raw JSON-RPC on the server's stdin: every stdout line is a protocol message; an unknown tool is
   * a JSON-RPC error, not a tool result; closing stdin stops the server with exit 0.
   */
  @Test
  void stdoutCarriesOnlyProtocolMessagesAndMisuseIsAJsonRpcError() throws Exception {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "dev.ratchet.cli.Main",
                "mcp",
                task.toString(),
                "--run-id",
                "mcp-raw",
                "--home",
                cli.home().toString()));
    Process p = new ProcessBuilder(cmd).redirectError(dir.resolve("raw.err").toFile()).start();
    String requests =
        String.join(
            "\n",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"no_such_tool\",\"arguments\":{}}}");
    try (var in = p.getOutputStream()) {
      in.write((requests + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
      in.flush();
      // Leave stdin open until all three answers are out, then close it.
      List<String> lines = new ArrayList<>();
      var out =
          new java.io.BufferedReader(
              new java.io.InputStreamReader(
                  p.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
      while (lines.size() < 3) {
        String line = out.readLine();
        assertThat(line).as("stdout ended early; stderr: %s", stderrOf("raw.err")).isNotNull();
        lines.add(line);
      }
      for (String line : lines) {
        JsonObject msg = (JsonObject) Json.parse(line);
        assertThat(msg.get("jsonrpc").orElseThrow()).isEqualTo(new JsonString("2.0"));
      }
      JsonObject misuse = (JsonObject) Json.parse(lines.get(2));
      assertThat(misuse.has("error")).as(lines.get(2)).isTrue();
      assertThat(misuse.has("result")).isFalse();
    }
    assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isZero();
    assertThat(
            new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8))
        .isBlank();
  }

  private String stderrOf(String name) throws java.io.IOException {
    return Files.readString(dir.resolve(name));
  }

  @Test
  void helpExplainsTheCommandToSomeoneNew() {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    int code =
        Main.execute(
            new String[] {"mcp", "--help"},
            new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8),
            System.err,
            dev.ratchet.ops.Services.standard());
    assertThat(code).isZero();
    assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8))
        .contains("Model Context Protocol")
        .contains("call_id")
        .contains("approve RUN_ID")
        .contains("--run-id")
        .contains("mcpServers")
        .doesNotContain("--crash-at");
  }

  private boolean paid(String orderId) {
    return ledger.orders().stream()
        .anyMatch(
            o ->
                orderId.equals(((JsonString) o.get("order_id").orElseThrow()).value())
                    && "paid".equals(((JsonString) o.get("status").orElseThrow()).value()));
  }
}
