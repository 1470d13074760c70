package dev.ratchet.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.mcp.internal.JsonBridge;
import dev.ratchet.mcp.internal.TaskView;
import dev.ratchet.mcp.internal.Tasks;
import dev.ratchet.mcp.internal.ToolCalls;
import dev.ratchet.mcp.internal.ToolCatalog;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.seam.Entropy;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A run's permitted action kinds served as MCP tools (ADR 0080). Every call runs on one thread that
 * owns the run, in arrival order; a caller that stops waiting (a client's cancellation, a
 * disconnect) does not stop an effect already started: it is carried through and recorded, and a
 * retry with the same {@code call_id} returns its outcome.
 */
public final class McpToolServer implements AutoCloseable {
  public static final String NAME = "ratchet";

  /** What the server tells every client about the tools (both protocol revisions). */
  public static final String INSTRUCTIONS =
      "Tools act in one durable Ratchet run. Give every write a new call_id and reuse it when you"
          + " retry that write: a retry never writes twice. Writes that need a human approval"
          + " return awaiting_approval; call them again later with the same call_id.";

  /** How often a waiting call reports progress (to clients that asked for it). */
  public static final Duration PROGRESS_EVERY = Duration.ofSeconds(1);

  private static final System.Logger LOG = System.getLogger(McpToolServer.class.getName());

  private final String runId;
  private final McpJsonMapper mapper = new JacksonMcpJsonMapper(new ObjectMapper());
  private final List<ToolCatalog.Entry> catalog;
  private final ToolCalls calls;
  private final Tasks tasks;
  private final ScheduledExecutorService runThread =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "ratchet-mcp-run");
            t.setDaemon(true);
            return t;
          });

  public McpToolServer(
      RunAccess access,
      TaskSpec task,
      EnvironmentAdapter adapter,
      ServerSettings settings,
      Entropy entropy) {
    this.runId = settings.runId();
    JsonBridge json = new JsonBridge(mapper);
    this.catalog = ToolCatalog.of(task, adapter.actionSpecs(), settings, json);
    this.calls = new ToolCalls(access, adapter, catalog, json, settings, entropy);
    this.tasks = new Tasks(access, calls, catalog, entropy);
    // Durable tasks: an approved write is carried out by the server holding the run (ADR 0082).
    runThread.scheduleWithFixedDelay(this::drive, 1, 1, TimeUnit.SECONDS);
  }

  private void drive() {
    try {
      tasks.drive();
    } catch (RuntimeException e) {
      // The next tick tries again; a call or a restart reconciles what the run holds.
      LOG.log(System.Logger.Level.WARNING, "run " + runId + ": task driver: " + e.getMessage());
    }
  }

  /** The tools, as {@code tools/list} shows them. */
  public List<McpSchema.Tool> tools() {
    return catalog.stream().map(ToolCatalog.Entry::tool).toList();
  }

  /** Runs one call on the run's thread and waits for it. */
  public McpSchema.CallToolResult call(McpSchema.CallToolRequest request) {
    return onRunThread(() -> calls.call(request));
  }

  /**
   * A call from {@code client}, which declared the tasks extension on it: an approval-gated write
   * answers with a durable task once its intent is committed (ADR 0082); progress as {@link
   * #call(McpSchema.CallToolRequest, Progress, Duration)}.
   */
  public Tasks.Answer callForTask(
      McpSchema.CallToolRequest request, String client, Progress progress, Duration every) {
    return waiting(() -> tasks.call(request, client), progress, every);
  }

  /** {@code tasks/get}: the task's state derived from the run's signed state, or empty. */
  public Optional<TaskView> task(String taskId) {
    return onRunThread(() -> tasks.get(taskId));
  }

  /** {@code tasks/cancel} by {@code client}; false for an unknown task. */
  public boolean cancelTask(String taskId, String client) {
    return onRunThread(() -> tasks.cancel(taskId, client));
  }

  private <T> T onRunThread(Callable<T> work) {
    Future<T> f = runThread.submit(work);
    try {
      return f.get();
    } catch (InterruptedException e) {
      // The caller gave up; the call itself goes on to its end on the run's thread.
      Thread.currentThread().interrupt();
      throw new RatchetException(ErrorCode.INTERNAL, "the call was abandoned by its caller");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new RatchetException(ErrorCode.INTERNAL, "tool call failed", e.getCause());
    }
  }

  /** Where a waiting call's progress goes: the client's progress notifications. */
  @FunctionalInterface
  public interface Progress {
    /** The {@code ticks}-th report of a call still waiting, with what it waits for. */
    void report(double ticks, String message);
  }

  /**
   * Runs one call and, while it waits — queued behind another call of the run, or running (a lease
   * to win back, an effect in flight) — sends {@code exchange} a progress notification every {@code
   * every} when the request carries a progress token (protocol 2025-11-25). The notifications only
   * inform: the call's outcome is the same with or without them. Over HTTP the authenticated
   * client's name (in the exchange's transport context) is committed with the call's cause. The
   * exchange's session id (the streamable-HTTP {@code Mcp-Session-Id}, or the stdio connection's
   * one session) goes on the call's span as {@code mcp.session.id}.
   */
  public McpSchema.CallToolResult call(
      McpSchema.CallToolRequest request, McpSyncServerExchange exchange, Duration every) {
    Object who =
        exchange == null || exchange.transportContext() == null
            ? null
            : exchange.transportContext().get("client");
    String client = who == null ? null : who.toString();
    String session = exchange == null ? null : exchange.sessionId();
    Object token = request.progressToken();
    if (token == null || exchange == null) {
      return call(request, client, session, null, every);
    }
    return call(
        request,
        client,
        session,
        (ticks, message) ->
            exchange.progressNotification(
                new McpSchema.ProgressNotification(token, ticks, null, message, null)),
        every);
  }

  /**
   * Runs one call, reporting to {@code progress} every {@code every} while it waits (queued or
   * running); a null {@code progress} reports nothing. Both protocol revisions come here.
   */
  public McpSchema.CallToolResult call(
      McpSchema.CallToolRequest request, Progress progress, Duration every) {
    return call(request, null, progress, every);
  }

  /**
   * {@link #call(McpSchema.CallToolRequest, Progress, Duration)} for the authenticated {@code
   * client} (null: none, as over stdio), whose name is committed with the call's cause: the run's
   * signed record says which client asked for each action.
   */
  public McpSchema.CallToolResult call(
      McpSchema.CallToolRequest request, String client, Progress progress, Duration every) {
    return call(request, client, null, progress, every);
  }

  /** As above, within the transport session {@code session} (null: none), for its span. */
  public McpSchema.CallToolResult call(
      McpSchema.CallToolRequest request,
      String client,
      String session,
      Progress progress,
      Duration every) {
    return waiting(() -> calls.call(request, ToolCalls.client(client), session), progress, every);
  }

  private <T> T waiting(Callable<T> work, Progress progress, Duration every) {
    if (progress == null) {
      return onRunThread(work);
    }
    AtomicBoolean started = new AtomicBoolean();
    Future<T> f =
        runThread.submit(
            () -> {
              started.set(true);
              return work.call();
            });
    int ticks = 0;
    while (true) {
      try {
        return f.get(every.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        ticks++;
        progress.report(
            ticks,
            started.get()
                ? "the call is in progress in run " + runId
                : "waiting for another call of run " + runId + " to finish");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RatchetException(ErrorCode.INTERNAL, "the call was abandoned by its caller");
      } catch (ExecutionException e) {
        if (e.getCause() instanceof RuntimeException r) {
          throw r;
        }
        throw new RatchetException(ErrorCode.INTERNAL, "tool call failed", e.getCause());
      }
    }
  }

  /** Starts the SDK server on {@code transport} (stdio); it serves until the transport closes. */
  public McpSyncServer serve(McpServerTransportProvider transport, String version) {
    return configure(McpServer.sync(transport), version);
  }

  /**
   * Starts the SDK server on a streamable-HTTP transport: many sessions, each bound to this run
   * (ADR 0081). Calls from every session still run one at a time on the run's thread.
   */
  public McpSyncServer serve(McpStreamableServerTransportProvider transport, String version) {
    return configure(McpServer.sync(transport), version);
  }

  private McpSyncServer configure(McpServer.SyncSpecification<?> spec, String version) {
    List<McpServerFeatures.SyncToolSpecification> specs = new ArrayList<>();
    for (McpSchema.Tool tool : tools()) {
      specs.add(
          McpServerFeatures.SyncToolSpecification.builder()
              .tool(tool)
              .callHandler((exchange, request) -> call(request, exchange, PROGRESS_EVERY))
              .build());
    }
    return spec.serverInfo(NAME, version)
        .jsonMapper(mapper)
        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
        .instructions(INSTRUCTIONS)
        .tools(specs)
        .build();
  }

  /** The JSON mapper the server and its transport share. */
  public McpJsonMapper jsonMapper() {
    return mapper;
  }

  @Override
  public void close() {
    runThread.shutdown();
  }
}
