package dev.ratchet.mcp.internal;

import dev.ratchet.mcp.McpToolServer;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpAsyncResponse;
import io.modelcontextprotocol.modern.server.McpFeature;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import java.util.Map;
import java.util.Set;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The tasks extension's methods for one run, on the SDK's newer stack (ADR 0082): {@code tasks/get}
 * derives the task from the run's signed state, {@code tasks/cancel} withdraws a write still
 * waiting for its approval, {@code tasks/update} is acknowledged (an approval is a human's signed
 * decision, never a client's input response). A task id is looked up in the run of the endpoint
 * only, after the bearer token was checked for that run.
 */
final class TasksFeature implements McpFeature {
  static final String GET = "tasks/get";
  static final String UPDATE = "tasks/update";
  static final String CANCEL = "tasks/cancel";

  private final McpToolServer tools;

  TasksFeature(McpToolServer tools) {
    this.tools = tools;
  }

  @Override
  public Set<String> methods() {
    return Set.of(GET, UPDATE, CANCEL);
  }

  @Override
  public void capabilities(McpSchema.ServerCapabilities.Builder builder) {
    builder.extension(Tasks.EXTENSION, Map.of());
  }

  @Override
  public Mono<? extends McpAsyncResponse<? extends McpSchema.Result>> handle(
      McpRequestContext ctx, Object params) {
    // The run's thread may be busy with a write: wait for it off the transport's threads.
    return Mono.fromCallable(() -> McpAsyncResponse.result(answer(ctx, params)))
        .subscribeOn(Schedulers.boundedElastic());
  }

  private TaskResult answer(McpRequestContext ctx, Object params) {
    if (!declaresTasks(ctx.clientCapabilities())) {
      throw McpException.missingClientCapability(
          McpSchema.ClientCapabilities.builder()
              .extensions(Map.of(Tasks.EXTENSION, Map.of()))
              .build());
    }
    Object id = params instanceof Map<?, ?> m ? m.get("taskId") : null;
    if (!(id instanceof String taskId) || taskId.isEmpty()) {
      throw McpException.invalidParams("params.taskId: required, a task id from CreateTaskResult");
    }
    switch (ctx.method()) {
      case GET -> {
        return tools
            .task(taskId)
            .map(t -> new TaskResult(t.wire(tools.jsonMapper(), McpSchema.ResultType.COMPLETE)))
            .orElseThrow(TasksFeature::notFound);
      }
      case CANCEL -> {
        if (!tools.cancelTask(taskId, client(ctx))) {
          throw notFound();
        }
        return TaskResult.acknowledged();
      }
      default -> {
        if (tools.task(taskId).isEmpty()) {
          throw notFound();
        }
        return TaskResult.acknowledged();
      }
    }
  }

  private static McpException notFound() {
    return McpException.invalidParams("Failed to retrieve task: Task not found");
  }

  /** Whether the request declares the tasks extension in its per-request capabilities. */
  static boolean declaresTasks(McpSchema.ClientCapabilities caps) {
    return caps != null
        && caps.extensions() != null
        && caps.extensions().containsKey(Tasks.EXTENSION);
  }

  /** The authenticated client's name (the bearer filter put it in the transport context). */
  static String client(McpRequestContext ctx) {
    Object c = ctx.transportContext() == null ? null : ctx.transportContext().get("client");
    return c == null ? "unknown" : c.toString();
  }
}
