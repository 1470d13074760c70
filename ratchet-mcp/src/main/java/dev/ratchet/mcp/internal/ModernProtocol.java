package dev.ratchet.mcp.internal;

import dev.ratchet.mcp.McpToolServer;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import io.modelcontextprotocol.modern.server.feature.McpSyncToolRepository;
import io.modelcontextprotocol.modern.server.feature.ToolsFeature;
import io.modelcontextprotocol.modern.server.feature.ToolsPage;
import io.modelcontextprotocol.modern.server.transport.HttpServletMcpTransport;
import io.modelcontextprotocol.server.McpTransportContextExtractor;
import io.modelcontextprotocol.server.transport.ServerHttpHeaderValidator;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One run's tools on the SDK's newer server stack, for clients of protocol 2026-07-28 (ADR 0081).
 * The tools and every call are the legacy stack's, translated at the edge through their common wire
 * form (the JSON of a tool, a call and a result is the same in both schema packages), so both
 * revisions reach the one run thread and its {@code call_id} contract.
 */
public final class ModernProtocol {
  private ModernProtocol() {}

  /** The newer stack's servlet for {@code tools}, at {@code endpoint}. */
  public static HttpServletMcpTransport servlet(
      McpToolServer tools,
      String version,
      String endpoint,
      ServerHttpHeaderValidator validator,
      McpTransportContextExtractor<HttpServletRequest> context) {
    McpJsonMapper json = tools.jsonMapper();
    Map<String, McpSyncTool> byName = new LinkedHashMap<>();
    for (McpSchema.Tool tool : tools.tools()) {
      io.modelcontextprotocol.modern.McpSchema.Tool definition =
          json.convertValue(tool, io.modelcontextprotocol.modern.McpSchema.Tool.class);
      byName.put(
          tool.name(),
          McpSyncTool.of(
              definition,
              (ctx, request) -> {
                McpSchema.CallToolRequest call =
                    McpSchema.CallToolRequest.builder(request.name())
                        .arguments(request.arguments() == null ? Map.of() : request.arguments())
                        .build();
                boolean tasks = TasksFeature.declaresTasks(ctx.clientCapabilities());
                if (ctx.progressToken() == null) {
                  return McpSyncResponse.result(answer(tools, json, call, ctx, tasks, null));
                }
                // The client asked for progress: the answer streams, with a report every second
                // while the call waits (queued behind another call of the run, or running).
                return McpSyncResponse.streaming(
                    notifier ->
                        answer(
                            tools,
                            json,
                            call,
                            ctx,
                            tasks,
                            (ticks, message) -> notifier.progress(ticks, null, message)));
              }));
    }
    List<io.modelcontextprotocol.modern.McpSchema.Tool> listed = new ArrayList<>();
    byName.values().forEach(t -> listed.add(t.definition()));
    McpSyncToolRepository repository =
        new McpSyncToolRepository() {
          @Override
          public ToolsPage list(
              io.modelcontextprotocol.modern.server.McpRequestContext ctx, String cursor) {
            return ToolsPage.of(listed);
          }

          @Override
          public McpSyncTool find(
              io.modelcontextprotocol.modern.server.McpRequestContext ctx, String name) {
            return byName.get(name);
          }
        };
    McpServer server =
        McpServer.builder()
            .serverInfo(
                io.modelcontextprotocol.modern.McpSchema.Implementation.builder(
                        McpToolServer.NAME, version)
                    .build())
            .jsonMapper(json)
            .instructions(McpToolServer.INSTRUCTIONS)
            .feature(ToolsFeature.ofSync(repository))
            .feature(new TasksFeature(tools))
            .build();
    return HttpServletMcpTransport.builder(server)
        .jsonMapper(json)
        .endpoint(endpoint)
        .httpHeaderValidator(validator)
        .contextExtractor(context)
        .build();
  }

  /**
   * One call's answer: for a client that declared the tasks extension on the request, a durable
   * task for an approval-gated write (ADR 0082); otherwise the tool result.
   */
  private static io.modelcontextprotocol.modern.McpSchema.CallToolOutcome answer(
      McpToolServer tools,
      McpJsonMapper json,
      McpSchema.CallToolRequest call,
      io.modelcontextprotocol.modern.server.McpRequestContext ctx,
      boolean tasks,
      McpToolServer.Progress progress) {
    McpSchema.CallToolResult result;
    if (tasks) {
      Tasks.Answer a =
          tools.callForTask(call, TasksFeature.client(ctx), progress, McpToolServer.PROGRESS_EVERY);
      if (a.task() != null) {
        return new TaskResult(a.task().wire(json, "task"));
      }
      result = a.result();
    } else {
      result = tools.call(call, TasksFeature.client(ctx), progress, McpToolServer.PROGRESS_EVERY);
    }
    return json.convertValue(result, io.modelcontextprotocol.modern.McpSchema.CallToolResult.class);
  }

  /** Whether a request speaks the newer revision (its header says so; older clients never do). */
  public static boolean speaksModern(HttpServletRequest request) {
    String version = request.getHeader("MCP-Protocol-Version");
    return version != null && version.compareTo("2026-07-28") >= 0;
  }
}
