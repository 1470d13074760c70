package dev.ratchet.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The MCP SDK's own stdio client with {@code ratchet mcp} as its server process — {@code java -cp
 * <this test class path> dev.ratchet.cli.Main mcp …}, the code the shaded jar holds; with a crash
 * point or a short lease, the harness's {@code CrashingMcpMain} running the same server. The
 * server's stderr is kept; a crash point it reaches is answered with SIGKILL through its pid.
 */
final class McpClientProcess implements AutoCloseable {
  final List<String> stderr = Collections.synchronizedList(new ArrayList<>());
  final McpSyncClient client;

  McpClientProcess(List<String> ratchetArgs) {
    List<String> args = new ArrayList<>();
    args.addAll(List.of("-XX:TieredStopAtLevel=1", "-Xshare:auto"));
    args.add("-cp");
    args.add(System.getProperty("java.class.path"));
    String[] given = ratchetArgs.toArray(String[]::new);
    if (McpHttpServerProcess.knobs(given)) {
      args.add(ProcessCli.CRASHING_MCP);
      args.addAll(List.of(McpHttpServerProcess.withoutCommand(given)));
    } else {
      args.add("dev.ratchet.cli.Main");
      args.addAll(ratchetArgs);
    }
    ServerParameters params =
        ServerParameters.builder(Path.of(System.getProperty("java.home"), "bin", "java").toString())
            .args(args)
            .build();
    StdioClientTransport transport =
        new StdioClientTransport(params, new JacksonMcpJsonMapper(new ObjectMapper()));
    transport.setStdErrorHandler(stderr::add);
    client =
        McpClient.sync(transport)
            .requestTimeout(Duration.ofSeconds(120))
            .initializationTimeout(Duration.ofSeconds(120))
            .build();
    client.initialize();
  }

  McpSchema.CallToolResult call(String tool, Map<String, Object> arguments) {
    return client.callTool(McpSchema.CallToolRequest.builder(tool).arguments(arguments).build());
  }

  /**
   * Calls a tool in the background, waits for the server to report its armed crash point, and kills
   * the server with SIGKILL there. Returns the crash line.
   */
  String callUntilCrash(String tool, Map<String, Object> arguments) throws Exception {
    CompletableFuture<McpSchema.CallToolResult> pending =
        CompletableFuture.supplyAsync(() -> call(tool, arguments));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      String crash = line("CRASH ");
      if (crash != null) {
        ProcessHandle server = ProcessHandle.of(pid()).orElseThrow();
        server.destroyForcibly();
        server.onExit().get(30, TimeUnit.SECONDS);
        if (pending.isDone() && !pending.isCompletedExceptionally()) {
          throw new AssertionError("the call returned although its server was killed");
        }
        return crash;
      }
      if (pending.isDone()) {
        throw new AssertionError("the call ended without reaching its crash point: " + stderr);
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no crash point reached: " + stderr);
  }

  long pid() {
    String l = line("ratchet mcp: pid ");
    if (l == null) {
      throw new AssertionError("the server did not report its pid: " + stderr);
    }
    return Long.parseLong(l.substring(l.indexOf("pid ") + 4).strip());
  }

  private String line(String prefix) {
    synchronized (stderr) {
      return stderr.stream().filter(s -> s.contains(prefix)).findFirst().orElse(null);
    }
  }

  @Override
  public void close() {
    try {
      client.closeGracefully();
    } catch (RuntimeException e) {
      client.close();
    }
  }
}
