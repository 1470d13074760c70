package dev.ratchet.mcp.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratchet.Run;
import dev.ratchet.mcp.McpToolServer;
import dev.ratchet.mcp.RunAccess;
import dev.ratchet.mcp.ServerSettings;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.RuntimeFixture;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTTP server in process, over a real in-memory run: what a waiting call tells its client. */
class McpHttpServerTest {
  @TempDir Path dir;
  private McpHttpServer http;
  private McpToolServer tools;
  private final CountDownLatch inEffect = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private RuntimeFixture f;
  private InMemoryWorkspace ws;
  private String token;
  private Run run;

  @AfterEach
  void tearDown() {
    release.countDown();
    if (http != null) {
      http.close();
    }
    if (tools != null) {
      tools.close();
    }
  }

  private static McpSyncClient client(
      URI base, String token, List<McpSchema.ProgressNotification> progress) {
    HttpClientStreamableHttpTransport transport =
        HttpClientStreamableHttpTransport.builder(base.toString())
            .endpoint("/runs/run-1/mcp")
            .jsonMapper(new JacksonMcpJsonMapper(new ObjectMapper()))
            .addHttpRequestCustomizer(
                (request, method, uri, body, context) ->
                    request.header("Authorization", "Bearer " + token))
            .build();
    McpSyncClient c =
        McpClient.sync(transport)
            .requestTimeout(Duration.ofSeconds(30))
            .progressConsumer(progress::add)
            .build();
    c.initialize();
    return c;
  }

  private static McpSchema.CallToolRequest write(String callId, String path, Object token) {
    McpSchema.CallToolRequest.Builder b =
        McpSchema.CallToolRequest.builder("write_file")
            .arguments(Map.of("call_id", callId, "path", path, "content", "x\n"));
    if (token != null) {
      b.progressToken(token);
    }
    return b.build();
  }

  /** The run-1 server over an in-memory run whose first write is held inside its effect. */
  private URI serve() {
    f = RuntimeFixture.inMemory(41);
    TaskSpec task = f.task();
    ws = f.workspace();
    ws.crashSeam(
        point -> {
          // The first write holds the run's thread inside its effect until the test lets go.
          if (point == CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT && inEffect.getCount() > 0) {
            inEffect.countDown();
            try {
              release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        });
    run = f.ratchet("mcp-test").start(task, "run-1", ws);
    RunAccess access = new HeldRun(run);
    tools =
        new McpToolServer(
            access,
            task,
            ws,
            new ServerSettings("run-1", "ratchet approve run-1 --approver NAME", null, false),
            f.entropy);
    McpTokens tokens = new McpTokens(dir.resolve("mcp-tokens"));
    token = tokens.issue("agent", List.of("run-1"), f.entropy, Instant.EPOCH);
    http = new McpHttpServer("127.0.0.1", 0, tokens, "test").mount("run-1", tools);
    return http.start();
  }

  @Test
  void aCallQueuedBehindAnotherReportsProgressOnlyToAClientThatAskedForIt() throws Exception {
    URI base = serve();
    List<McpSchema.ProgressNotification> quiet = new CopyOnWriteArrayList<>();
    List<McpSchema.ProgressNotification> asked = new CopyOnWriteArrayList<>();
    McpSyncClient first = client(base, token, quiet);
    McpSyncClient second = client(base, token, asked);
    CompletableFuture<McpSchema.CallToolResult> held =
        CompletableFuture.supplyAsync(() -> first.callTool(write("w-1", "app.py", null)));
    assertThat(inEffect.await(30, TimeUnit.SECONDS)).isTrue();
    CompletableFuture<McpSchema.CallToolResult> queued =
        CompletableFuture.supplyAsync(() -> second.callTool(write("w-2", "log.txt", "p-7")));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (asked.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(queued).isNotDone();
    release.countDown();

    assertThat(held.get(30, TimeUnit.SECONDS).isError()).isFalse();
    McpSchema.CallToolResult done = queued.get(30, TimeUnit.SECONDS);
    assertThat(done.isError()).as("%s", done).isFalse();
    assertThat(asked).isNotEmpty();
    assertThat(asked.get(0).progressToken()).isEqualTo("p-7");
    assertThat(asked.get(0).message()).contains("waiting for another call of run run-1");
    assertThat(asked).extracting(McpSchema.ProgressNotification::progress).isSorted();
    assertThat(quiet).as("a call without a progress token gets none").isEmpty();
    assertThat(ws.ledger()).hasSize(2);
    // Each call's committed cause names the client its bearer token was issued to.
    assertThat(run.cause("mcp-w-2").orElseThrow().body().get("client"))
        .contains(new dev.ratchet.json.JsonString("agent"));
  }

  /**
   * A client of protocol 2026-07-28 (the SDK's newer client) that asks for progress gets it while
   * its call waits behind another one of the run; the answer streams, then the call completes.
   */
  @Test
  void aModernClientsQueuedCallReportsProgress() throws Exception {
    URI base = serve();
    McpSyncClient first = client(base, token, new CopyOnWriteArrayList<>());
    CompletableFuture<McpSchema.CallToolResult> held =
        CompletableFuture.supplyAsync(() -> first.callTool(write("w-1", "app.py", null)));
    assertThat(inEffect.await(30, TimeUnit.SECONDS)).isTrue();

    JacksonMcpJsonMapper json = new JacksonMcpJsonMapper(new ObjectMapper());
    io.modelcontextprotocol.modern.client.McpSyncClient modern =
        io.modelcontextprotocol.modern.client.McpClient.sync(
                io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport.builder(
                        base.resolve("runs/run-1/mcp"))
                    .jsonMapper(json)
                    .requestCustomizer(
                        io.modelcontextprotocol.modern.client.transport.McpHttpRequestCustomizer
                            .fromSync(
                                (request, headers, context) ->
                                    headers.set("Authorization", "Bearer " + token)))
                    .build())
            .jsonMapper(json)
            .clientInfo(
                io.modelcontextprotocol.modern.McpSchema.Implementation.builder("modern", "1")
                    .build())
            .callTimeout(Duration.ofSeconds(30))
            .build();
    List<io.modelcontextprotocol.modern.McpSchema.ProgressParams> reports =
        new CopyOnWriteArrayList<>();
    CompletableFuture<io.modelcontextprotocol.modern.McpSchema.CallToolResult> queued =
        CompletableFuture.supplyAsync(
            () ->
                modern
                    .tool("write_file")
                    .arguments(Map.of("call_id", "w-2", "path", "log.txt", "content", "x\n"))
                    .progress(reports::add)
                    .call());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (reports.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(queued).isNotDone();
    release.countDown();

    assertThat(held.get(30, TimeUnit.SECONDS).isError()).isFalse();
    io.modelcontextprotocol.modern.McpSchema.CallToolResult done = queued.get(30, TimeUnit.SECONDS);
    assertThat(done.isError()).as("%s", done).isFalse();
    assertThat(reports).isNotEmpty();
    assertThat(reports.get(0).message()).contains("waiting for another call of run run-1");
    assertThat(ws.ledger()).hasSize(2);
  }
}
