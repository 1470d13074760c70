package dev.ratchet.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code ratchet mcp --http 127.0.0.1:0} as a real process (the code the shaded jar holds), and the
 * MCP SDK's own streamable-HTTP client against it, with a bearer token. SIGKILL goes to its pid.
 */
final class McpHttpServerProcess implements AutoCloseable {
  final ProcessCli.Started started;
  final URI base;
  private final List<McpSyncClient> clients = new ArrayList<>();

  McpHttpServerProcess(ProcessCli cli, String... args) throws Exception {
    started =
        knobs(args)
            ? cli.startMain(ProcessCli.CRASHING_MCP, withoutCommand(args))
            : cli.start(args);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    String line = null;
    while (line == null) {
      if (System.nanoTime() > deadline || !started.process().isAlive()) {
        started.process().destroyForcibly();
        throw new AssertionError("the server did not start: " + started.stderr());
      }
      line = line("ratchet mcp: listening on ");
      if (line == null) {
        Thread.sleep(20);
      }
    }
    base = URI.create(line.substring(line.indexOf("listening on ") + 13).strip());
  }

  /** The first stderr line containing {@code text}, or null. */
  String line(String text) throws IOException {
    return started.stderr().lines().filter(l -> l.contains(text)).findFirst().orElse(null);
  }

  /** A client of {@code runId}'s endpoint presenting {@code token}, initialized. */
  McpSyncClient client(String runId, String token) {
    HttpClientStreamableHttpTransport transport =
        HttpClientStreamableHttpTransport.builder(base.toString())
            .endpoint("/runs/" + runId + "/mcp")
            .jsonMapper(new JacksonMcpJsonMapper(new ObjectMapper()))
            .addHttpRequestCustomizer(
                (request, method, uri, body, context) ->
                    request.header("Authorization", "Bearer " + token))
            .build();
    McpSyncClient client =
        McpClient.sync(transport)
            .requestTimeout(Duration.ofSeconds(60))
            .initializationTimeout(Duration.ofSeconds(60))
            .build();
    clients.add(client);
    client.initialize();
    return client;
  }

  /** A client of protocol 2026-07-28 (the SDK's newer stack) for {@code runId}'s endpoint. */
  io.modelcontextprotocol.modern.client.McpSyncClient modernClient(String runId, String token) {
    JacksonMcpJsonMapper json = new JacksonMcpJsonMapper(new ObjectMapper());
    io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport transport =
        io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport.builder(
                base.resolve("runs/" + runId + "/mcp"))
            .jsonMapper(json)
            .requestCustomizer(
                io.modelcontextprotocol.modern.client.transport.McpHttpRequestCustomizer.fromSync(
                    (request, headers, context) -> headers.set("Authorization", "Bearer " + token)))
            .build();
    return io.modelcontextprotocol.modern.client.McpClient.sync(transport)
        .jsonMapper(json)
        .clientInfo(
            io.modelcontextprotocol.modern.McpSchema.Implementation.builder("modern-test", "1")
                .build())
        .callTimeout(Duration.ofSeconds(60))
        .build();
  }

  static McpSchema.CallToolResult call(
      McpSyncClient client, String tool, Map<String, Object> arguments) {
    return client.callTool(McpSchema.CallToolRequest.builder(tool).arguments(arguments).build());
  }

  /** SIGKILL, and wait for the process to be gone. */
  void kill() throws Exception {
    ProcessHandle h = started.process().toHandle();
    h.destroyForcibly();
    h.onExit().get(30, TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    for (McpSyncClient c : clients) {
      try {
        c.close();
      } catch (RuntimeException e) {
        // a client of a killed server
      }
    }
    started.process().destroyForcibly();
    try {
      started.process().waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * A crash point or a short lease: the harness's MCP entry point, not 'ratchet mcp' (ADR 0110).
   */
  static boolean knobs(String... args) {
    List<String> a = List.of(args);
    return a.contains("--crash-at") || a.contains("--lease-ttl-ms");
  }

  /** The arguments after {@code mcp}. */
  static String[] withoutCommand(String... args) {
    return java.util.Arrays.copyOfRange(args, 1, args.length);
  }
}
