package dev.ratchet.mcp.internal;

import dev.ratchet.Run;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.mcp.RunAccess;
import dev.ratchet.model.Cause;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.model.Phase;
import dev.ratchet.model.RunState;
import dev.ratchet.outcome.ActionOutcome;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.seam.Entropy;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One {@code tools/call}, through the run (ADR 0080). A write's {@code call_id} is its action id
 * ({@code mcp-<call_id>}), never its idempotency key (the runtime mints that, D4), and the request
 * is the {@link Cause} committed with the intent (D25). So a retried call finds its own earlier
 * intent: still pending (executed or reconciled now), done (the original outcome, from the
 * adapter's receipt), or refused (the same refusal again). Runs on the one thread that drives the
 * run.
 */
public final class ToolCalls {
  static final String CAUSE_KIND = "mcp_tools_call";
  private static final Pattern CALL_ID = Pattern.compile(Schemas.CALL_ID_PATTERN);
  static final String ACTION_PREFIX = "mcp-";

  /** OpenTelemetry's MCP attribute naming the transport session a call came in. */
  public static final String SESSION_ID = "mcp.session.id";

  private final RunAccess access;
  private final EnvironmentAdapter adapter;
  private final Map<String, ToolCatalog.Entry> tools;
  private final JsonBridge json;
  final Results results;
  private final Entropy entropy;

  public ToolCalls(
      RunAccess access,
      EnvironmentAdapter adapter,
      List<ToolCatalog.Entry> tools,
      JsonBridge json,
      dev.ratchet.mcp.ServerSettings settings,
      Entropy entropy) {
    this.access = access;
    this.adapter = adapter;
    this.tools = new java.util.HashMap<>();
    for (ToolCatalog.Entry e : tools) {
      this.tools.put(e.tool().name(), e);
    }
    this.json = json;
    this.results = new Results(json, settings);
    this.entropy = entropy;
  }

  /** Handles one call; a refusal becomes a tool error, a lapsed lease a resume and one retry. */
  public McpSchema.CallToolResult call(McpSchema.CallToolRequest request) {
    return call(request, null);
  }

  /**
   * {@link #call(McpSchema.CallToolRequest)}, adding the members of {@code extra} (the
   * authenticated client's name; a durable task, ADR 0082) to the cause committed with the call's
   * action, so they are in the run's signed record. Null: nothing added.
   */
  public McpSchema.CallToolResult call(McpSchema.CallToolRequest request, JsonObject extra) {
    return call(request, extra, null);
  }

  /**
   * {@link #call(McpSchema.CallToolRequest, JsonObject)} within the transport session {@code
   * session} (the SDK exchange's {@code sessionId()}; null: none, as on the sessionless 2026-07-28
   * stack), which the call's span carries as {@code mcp.session.id} (OpenTelemetry's MCP
   * conventions: recommended when the request is part of a session). Never committed: a session is
   * the transport's, not the run's.
   */
  public McpSchema.CallToolResult call(
      McpSchema.CallToolRequest request, JsonObject extra, String session) {
    ToolCatalog.Entry entry = tools.get(request.name());
    if (entry == null) {
      throw new IllegalArgumentException("unknown tool: " + request.name());
    }
    String callId = null;
    try {
      JsonObject all = json.toRatchet(request.arguments(), "arguments");
      callId = entry.write() ? callId(all) : null;
      try {
        return dispatch(entry, all, callId, extra, session);
      } catch (RatchetException e) {
        if (e.code() != ErrorCode.FENCED) {
          throw e;
        }
        // An idle server's lease lapsed: resume (recovery reconciles anything in flight), retry.
        access.reacquire();
        return dispatch(entry, all, callId, extra, session);
      }
    } catch (RatchetException e) {
      return results.error(e, callId);
    }
  }

  /**
   * One attempt, reported as a server span by OpenTelemetry's MCP conventions when the runtime has
   * an observer: {@code tools/call <tool>}, {@code mcp.method.name}, {@code gen_ai.tool.name},
   * {@code gen_ai.operation.name} {@code execute_tool}, and {@code mcp.session.id} within a session
   * (docs/telemetry.md); never an argument.
   */
  private McpSchema.CallToolResult dispatch(
      ToolCatalog.Entry e, JsonObject all, String callId, JsonObject extra, String session) {
    Run run = access.current();
    String tool = e.tool().name();
    Map<String, String> attributes = new java.util.HashMap<>();
    attributes.put("mcp.method.name", "tools/call");
    attributes.put("gen_ai.tool.name", tool);
    attributes.put("gen_ai.operation.name", "execute_tool");
    if (session != null && !session.isBlank()) {
      attributes.put(SESSION_ID, session);
    }
    return run.called(
        "tools/call " + tool, true, attributes, () -> dispatch(run, e, all, callId, extra));
  }

  private McpSchema.CallToolResult dispatch(
      Run run, ToolCatalog.Entry e, JsonObject all, String callId, JsonObject extra) {
    JsonObject body = causeBody(e.tool().name(), all);
    if (extra != null) {
      for (Map.Entry<String, JsonValue> m : extra.members().entrySet()) {
        body = body.with(m.getKey(), m.getValue());
      }
    }
    RunState s = run.state();
    if (s.phase().terminal()) {
      throw new RatchetException(
          ErrorCode.TERMINAL, "run " + s.runId() + " has ended (" + s.phase().wireName() + ")");
    }
    PendingIntent p = s.pending();
    if (!e.write()) {
      if (p != null) {
        throw pendingElsewhere(p);
      }
      return read(run, e, all, body);
    }
    JsonObject args = all.without(Schemas.CALL_ID);
    String actionId = ACTION_PREFIX + callId;
    if (p != null && p.action().actionId().equals(actionId)) {
      sameIntent(callId, p.action().kind(), p.action().arguments(), e.tool().name(), args);
      return finish(run, callId, actionId, e);
    }
    Optional<Cause> earlier = run.cause(actionId);
    if (earlier.isPresent()) {
      JsonObject params = (JsonObject) earlier.get().body().get("params").orElseThrow();
      sameIntent(
          callId,
          ((JsonString) params.get("name").orElseThrow()).value(),
          ((JsonObject) params.get("arguments").orElseThrow()).without(Schemas.CALL_ID),
          e.tool().name(),
          args);
      return earlierOutcome(run, callId, actionId);
    }
    if (s.phase() == Phase.NEEDS_REVIEW) {
      throw new RatchetException(
          ErrorCode.REVIEW_REQUIRED,
          "run " + s.runId() + " is frozen for review (" + s.stopReason() + ")");
    }
    if (p != null) {
      throw pendingElsewhere(p);
    }
    Proposal proposal =
        run.propose(run.action(actionId, e.tool().name(), args), cause(actionId, body));
    if (proposal.kind() == Proposal.Kind.REPLAYED) {
      return outcome(callId, proposal.replay());
    }
    return finish(run, callId, actionId, e);
  }

  /** Another write is pending: nothing is proposed, so this call's call_id stays free. */
  private RatchetException pendingElsewhere(PendingIntent p) {
    ToolCatalog.Entry other = tools.get(p.action().kind());
    return new RatchetException(
        other != null && other.approval() ? ErrorCode.APPROVAL : ErrorCode.CONTRACT,
        "another write ("
            + p.action().kind()
            + ", "
            + p.action().actionId()
            + ") is still pending; this call was not recorded: call it again (a write with the"
            + " same call_id) once that write is done");
  }

  /** A read or verification: reading also re-observes, so later writes are planned against it. */
  private McpSchema.CallToolResult read(
      Run run, ToolCatalog.Entry e, JsonObject args, JsonObject body) {
    run.observe();
    String actionId = ACTION_PREFIX + "read-" + HexFormat.of().formatHex(entropy.bytes(8));
    StepOutcome o = run.apply(run.action(actionId, e.tool().name(), args), cause(actionId, body));
    return results.outcome(
        e.spec().actionClass().name().toLowerCase(java.util.Locale.ROOT), null, o);
  }

  /** Executes (or reconciles) the pending write; one waiting for approval says so. */
  private McpSchema.CallToolResult finish(
      Run run, String callId, String actionId, ToolCatalog.Entry e) {
    StepOutcome o = run.execute(actionId);
    if (o instanceof StepOutcome.AwaitingApproval waiting) {
      if (e.approval()) {
        return results.awaitingApproval(callId, actionId, e.tool().name(), waiting.why());
      }
      throw new RatchetException(ErrorCode.APPROVAL, waiting.why());
    }
    if (o instanceof StepOutcome.Rejected rejected) {
      throw new RatchetException(ErrorCode.APPROVAL, rejected.why()); // refused to the client
    }
    // A call's answer is a report to the client: its receipt is durable first (D22 folds a
    // receipt into the next commit only between steps the runtime drives itself).
    run.flush();
    return outcome(callId, o);
  }

  private McpSchema.CallToolResult outcome(String callId, StepOutcome o) {
    if (o.kind() == StepOutcome.Kind.FROZEN) {
      throw new RatchetException(
          ErrorCode.REVIEW_REQUIRED,
          "the run froze for review"
              + (o.review() == null ? "" : " (" + o.review().reason() + ")")
              + ": the service's record does not match this write");
    }
    return results.outcome(o.kind().name().toLowerCase(java.util.Locale.ROOT), callId, o);
  }

  /**
   * A call_id whose intent is no longer pending: the run says how it ended ({@code outcomeOf}). A
   * write that happened is answered from the adapter's receipt under the key the run minted,
   * checked against the intent the run committed; a refused one is refused again.
   */
  McpSchema.CallToolResult earlierOutcome(Run run, String callId, String actionId) {
    ActionOutcome last = run.outcomeOf(actionId).orElse(null);
    if (last != null && last.done() && last.idempotencyKey() != null) {
      String key = last.idempotencyKey();
      Receipt r =
          adapter
              .lookup(key)
              .orElseThrow(
                  () ->
                      new RatchetException(
                          ErrorCode.VERIFICATION,
                          "the service holds no receipt for "
                              + actionId
                              + ", which the run recorded as done"));
      if (!r.intentDigest().equals(last.intentDigest())) {
        throw new RatchetException(
            ErrorCode.IDEMPOTENCY_CONFLICT,
            "the service's receipt for " + actionId + " is bound to a different intent");
      }
      return results.done("already_done", callId, actionId, r.result(), r);
    }
    if (run.state().phase() == Phase.NEEDS_REVIEW) {
      throw new RatchetException(
          ErrorCode.REVIEW_REQUIRED,
          "run "
              + run.state().runId()
              + " is frozen for review ("
              + run.state().stopReason()
              + ")");
    }
    ErrorCode ec = last == null || last.code() == null ? ErrorCode.CONTRACT : last.code();
    throw new RatchetException(
        ec,
        "call_id "
            + callId
            + " was refused when first called ("
            + (last == null ? "no outcome recorded" : last.traced().wireName())
            + "); it will not run: use a new call_id for a new attempt");
  }

  /** SPEC §7's conflict rule at the call level: one call_id names one intent. */
  private static void sameIntent(
      String callId, String kindBefore, JsonObject argsBefore, String kind, JsonObject args) {
    if (!kindBefore.equals(kind) || !Canonical.string(argsBefore).equals(Canonical.string(args))) {
      throw new RatchetException(
          ErrorCode.IDEMPOTENCY_CONFLICT,
          "call_id "
              + callId
              + " was first used for "
              + kindBefore
              + " with other arguments: a retry must repeat them exactly; a different write needs"
              + " a new call_id");
    }
  }

  /** The cause members naming an authenticated client, or null when there is none (stdio). */
  public static JsonObject client(String name) {
    return name == null ? null : JsonObject.builder().put("client", name).build();
  }

  private static String callId(JsonObject all) {
    JsonValue v = all.get(Schemas.CALL_ID).orElse(null);
    if (!(v instanceof JsonString s) || !CALL_ID.matcher(s.value()).matches()) {
      throw RatchetException.contract(
          "arguments.call_id: required for a write, 1-100 of [A-Za-z0-9._:-]; reuse it when you"
              + " retry this write");
    }
    return s.value();
  }

  private static JsonObject causeBody(String tool, JsonObject arguments) {
    return JsonObject.builder()
        .put("method", "tools/call")
        .put("params", JsonObject.builder().put("name", tool).put("arguments", arguments).build())
        .build();
  }

  private static Cause cause(String actionId, JsonObject body) {
    return new Cause(actionId, CAUSE_KIND, body, 0);
  }
}
