package dev.ratchet.mcp.internal;

import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.mcp.RunAccess;
import dev.ratchet.model.Cause;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.model.Phase;
import dev.ratchet.model.RunState;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.seam.Entropy;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Approval-gated writes as durable tasks (the MCP tasks extension, ADR 0082). A task is created in
 * the cause committed with its write's intent (its id and the client), so it exists exactly when
 * the intent does; its status is derived from the run's signed state on every read. Cancelling
 * withdraws an intent still waiting for its approval; an approved write is carried out by {@link
 * #drive()}, never by a read. Runs on the one thread that drives the run.
 */
public final class Tasks {
  /** The extension's identifier, in capabilities. */
  public static final String EXTENSION = "io.modelcontextprotocol/tasks";

  private final RunAccess access;
  private final ToolCalls calls;
  private final Map<String, ToolCatalog.Entry> tools = new HashMap<>();
  private final Entropy entropy;
  private List<String> seenDecisions = List.of();

  /** What a task-capable client's {@code tools/call} gets: a task, or a plain tool result. */
  public record Answer(McpSchema.CallToolResult result, TaskView task) {}

  public Tasks(
      RunAccess access, ToolCalls calls, List<ToolCatalog.Entry> catalog, Entropy entropy) {
    this.access = access;
    this.calls = calls;
    this.entropy = entropy;
    catalog.forEach(e -> tools.put(e.tool().name(), e));
  }

  /**
   * A {@code tools/call} from a client that declared the extension on the request: an
   * approval-gated write answers with its task once its intent (and the task with it) is committed;
   * anything else, or a refusal, is the plain answer.
   */
  public Answer call(McpSchema.CallToolRequest request, String client) {
    ToolCatalog.Entry e = tools.get(request.name());
    JsonObject who = ToolCalls.client(client);
    if (e == null || !e.approval()) {
      return new Answer(calls.call(request, who), null);
    }
    JsonObject task =
        JsonObject.builder()
            .put("task_id", "rt_" + HexFormat.of().formatHex(entropy.bytes(16)))
            .build();
    McpSchema.CallToolResult r =
        calls.call(request, (who == null ? JsonObject.EMPTY : who).with("task", task));
    Object callId = request.arguments() == null ? null : request.arguments().get(Schemas.CALL_ID);
    if (Boolean.TRUE.equals(r.isError()) || !(callId instanceof String id)) {
      return new Answer(r, null);
    }
    Run run = access.current();
    Optional<Cause> c = run.cause(ToolCalls.ACTION_PREFIX + id).filter(Tasks::isTask);
    // A call_id first used by a client without tasks keeps its plain contract (no task).
    return c.isPresent() ? new Answer(null, view(run, c.get())) : new Answer(r, null);
  }

  /** The task's state now, or empty for an id this run never committed. */
  public Optional<TaskView> get(String taskId) {
    Run run = fresh();
    return find(run, taskId).map(c -> view(run, c));
  }

  /**
   * {@code tasks/cancel}: withdraws the intent while it still waits for its approval, traced with
   * the client's name (it holds a bearer token, not a key: D19). A write approved or done is
   * carried through, and the task reports its outcome. False for an unknown task.
   */
  public boolean cancel(String taskId, String client) {
    Run run = fresh();
    Optional<Cause> c = find(run, taskId);
    if (c.isEmpty()) {
      return false;
    }
    String actionId = c.get().causeId();
    String reason = "cancelled by MCP client " + client + " (tasks/cancel)";
    try {
      withdraw(run, actionId, reason);
    } catch (RatchetException e) {
      if (e.code() != ErrorCode.FENCED) {
        return true; // approved, started or gone meanwhile: carried through, or already ended
      }
      try {
        withdraw(access.reacquire(), actionId, reason);
      } catch (RatchetException again) {
        // As above: a write past its approval is carried through; the task says how it ended.
      }
    }
    return true;
  }

  private static void withdraw(Run run, String actionId, String reason) {
    PendingIntent p = run.state().pending();
    if (p != null && p.action().actionId().equals(actionId) && p.approval() == null) {
      run.withdraw(actionId, reason);
    }
  }

  /**
   * Carries out a task's write once a decision about it arrives (the server holds the run's lease:
   * it, or a worker, acts — never a {@code tasks/get}). Tries only when the run's inbox changed, so
   * a write still waiting adds nothing to the trace. Scheduled on the run's thread.
   */
  public void drive() {
    Run run = access.current();
    RunState s = run.state();
    PendingIntent p = s.pending();
    if (p == null || s.phase() != Phase.RUNNING) {
      return;
    }
    String actionId = p.action().actionId();
    if (run.cause(actionId).filter(Tasks::isTask).isEmpty()) {
      return;
    }
    List<String> decisions = access.decisions();
    if (decisions.equals(seenDecisions)) {
      return;
    }
    seenDecisions = decisions;
    try {
      run.execute(actionId);
      run.flush();
    } catch (RatchetException e) {
      if (e.code() == ErrorCode.FENCED) {
        access.reacquire(); // another server acted meanwhile; resuming reconciles its write
      }
      // Otherwise still waiting (APPROVAL) or refused: the run's trace says why.
    }
  }

  /** The run as this server can vouch for it: a lapsed lease is won back (recovery first). */
  private Run fresh() {
    return access.leaseLive() ? access.current() : access.reacquire();
  }

  private static Optional<Cause> find(Run run, String taskId) {
    byte[] wanted = taskId.getBytes(StandardCharsets.UTF_8);
    return run.causes().stream()
        .filter(Tasks::isTask)
        .filter(
            c ->
                MessageDigest.isEqual(
                    wanted, text(task(c), "task_id").getBytes(StandardCharsets.UTF_8)))
        .findFirst();
  }

  private static boolean isTask(Cause c) {
    return ToolCalls.CAUSE_KIND.equals(c.kind())
        && c.body().get("task").orElse(null) instanceof JsonObject;
  }

  private static JsonObject task(Cause c) {
    return (JsonObject) c.body().get("task").orElseThrow();
  }

  /** The task's status, from the run's signed state: its pending intent, else its trace. */
  private TaskView view(Run run, Cause cause) {
    String taskId = text(task(cause), "task_id");
    String actionId = cause.causeId();
    String callId = actionId.substring(ToolCalls.ACTION_PREFIX.length());
    List<TraceEvent> events =
        run.trace().stream().filter(t -> actionId.equals(t.actionId())).toList();
    Instant created = events.isEmpty() ? Instant.EPOCH : Instant.ofEpochMilli(events.get(0).atMs());
    TraceEvent last = events.isEmpty() ? null : events.get(events.size() - 1);
    Instant updated = last == null ? created : Instant.ofEpochMilli(last.atMs());
    RunState s = run.state();
    PendingIntent p = s.pending();
    if (p != null && p.action().actionId().equals(actionId)) {
      return pending(taskId, actionId, s, p, created, updated);
    }
    if (last != null && "intent_withdrawn".equals(last.outcome())) {
      return new TaskView(
          taskId,
          "cancelled",
          "withdrawn: " + text(last.detail(), "reason"),
          created,
          updated,
          null,
          null);
    }
    McpSchema.CallToolResult result;
    try {
      result = calls.earlierOutcome(run, callId, actionId);
    } catch (RatchetException e) {
      if (s.phase() == Phase.CANCELLED) {
        return new TaskView(
            taskId,
            "cancelled",
            "the run was cancelled by an operator",
            created,
            updated,
            null,
            null);
      }
      result = calls.results.error(e, callId);
    }
    return new TaskView(taskId, "completed", null, created, updated, result, null);
  }

  private TaskView pending(
      String taskId,
      String actionId,
      RunState s,
      PendingIntent p,
      Instant created,
      Instant updated) {
    if (s.phase() == Phase.NEEDS_REVIEW) {
      return new TaskView(
          taskId,
          "working",
          "the run is frozen for review (" + s.stopReason() + "); a reviewer decides",
          created,
          updated,
          null,
          null);
    }
    if (p.approval() != null) {
      return new TaskView(
          taskId,
          "working",
          "approved; the server holding the run's lease carries the write out",
          created,
          updated,
          null,
          null);
    }
    String message =
        "the write ("
            + p.action().kind()
            + ") is recorded and waits for a human's signed approval: "
            + calls.results.approveCommand();
    String page = calls.results.approvalPage();
    if (page == null) {
      return new TaskView(taskId, "working", message, created, updated, null, null);
    }
    // The console's approval page, as a URL-mode elicitation: the client shows it to its user.
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("mode", "url");
    params.put("elicitationId", "approve-" + actionId);
    params.put("message", message);
    params.put("url", page);
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("method", "elicitation/create");
    request.put("params", params);
    return new TaskView(
        taskId,
        "input_required",
        message + " (or on " + page + ")",
        created,
        updated,
        null,
        Map.of("approve-" + actionId, request));
  }

  private static String text(JsonObject o, String key) {
    return o.get(key)
        .filter(JsonString.class::isInstance)
        .map(v -> ((JsonString) v).value())
        .orElse("");
  }
}
