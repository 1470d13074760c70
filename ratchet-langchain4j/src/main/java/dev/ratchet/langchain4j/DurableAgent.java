package dev.ratchet.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;
import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonLimits;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.langchain4j.internal.Messages;
import dev.ratchet.langchain4j.internal.ModelSpans;
import dev.ratchet.langchain4j.internal.ToolSpecs;
import dev.ratchet.model.Cause;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.ActionOutcome;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.worker.DriveResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * A LangChain4j tool-calling loop made durable (SPEC D25): ask the model, turn each tool call into
 * a Ratchet action of the run's adapter ({@code propose}, then {@code execute}), feed the outcome
 * back as the tool's message, until the model answers without a tool call ({@code finish}, which
 * still needs the verifier) or a budget ends the run.
 *
 * <ul>
 *   <li>Each model response is a {@link Cause} ({@code turn-N}) committed with the first proposal
 *       it causes, with its token cost; the response's message rides on the same commit as
 *       conversation memory. A resumed agent rebuilds the conversation from memory and resumes at
 *       the first tool call without an outcome: it never asks the model again for a decided turn.
 *   <li>Tool call {@code i} of turn {@code N} is action {@code turn-N.i}: its outcome is found by
 *       that id after a crash. The idempotency key is minted by the runtime, never taken from the
 *       model's arguments, so a re-planning model cannot fire an effect again under a key of its
 *       own.
 *   <li>A write that needs an approval leaves the run waiting ({@link DriveResult#waiting}); the
 *       next drive after the approval arrives executes it and continues with its result. A rejected
 *       write (an approver's signed rejection) or one whose approval expired is dropped without
 *       running and the model gets that as the tool's result (ADR 0072); a changed call is a new
 *       intent that needs its own approval.
 * </ul>
 */
public final class DurableAgent {
  /** The cause kind of a model response. */
  public static final String CAUSE_KIND = "model_response";

  private final ChatModel model;
  private final String systemPrompt;
  private final String goal;
  private final int maxTurns;

  private DurableAgent(Builder b) {
    this.model = Objects.requireNonNull(b.model, "model");
    this.systemPrompt = Objects.requireNonNull(b.systemPrompt, "systemPrompt");
    this.goal = Objects.requireNonNull(b.goal, "goal");
    this.maxTurns = b.maxTurns;
  }

  public static Builder builder(ChatModel model) {
    return new Builder(model);
  }

  /** Drives without a worker (in-process). */
  public DriveResult drive(Run run, TaskSpec task) {
    return drive(run, task, () -> false);
  }

  /** Drives until the run ends, must wait for an approval, or {@code draining} asks it to stop. */
  public DriveResult drive(Run run, TaskSpec task, BooleanSupplier draining) {
    List<ToolSpecification> tools = ToolSpecs.of(run.actionSpecs(), task);
    List<ChatMessage> conversation = new ArrayList<>();
    List<JsonObject> memory = run.memory();
    for (int i = 0; i < memory.size(); i++) {
      conversation.add(Messages.decode(memory.get(i), "memory[" + i + "]"));
    }
    if (memory.isEmpty()) {
      remember(run, conversation, Messages.system(systemPrompt));
      remember(run, conversation, Messages.user(goal));
    }
    Cause fresh = null;
    while (true) {
      if (run.state().phase().terminal()) {
        return DriveResult.ended(run.state().phase().wireName());
      }
      if (run.state().phase() == Phase.NEEDS_REVIEW) {
        // A reviewer decides (resolveReview); the model is not asked while the run is frozen.
        return DriveResult.waiting("needs_review", null);
      }
      if (draining.getAsBoolean()) {
        return DriveResult.yielded("draining");
      }
      int turn = turns(conversation);
      AiMessage open = openTurn(conversation);
      if (open != null) {
        Cause cause = fresh != null ? fresh : run.cause(causeId(turn)).orElse(null);
        DriveResult waiting = callTools(run, conversation, open, turn, cause, draining);
        if (waiting != null) {
          return waiting;
        }
        continue;
      }
      if (turn >= maxTurns) {
        run.apply(run.action("turn-budget", "cancel", reason("the agent's turn budget ended")));
        return DriveResult.ended("turn budget");
      }
      ChatRequest request =
          ChatRequest.builder().messages(conversation).toolSpecifications(tools).build();
      // A span by the GenAI conventions when the runtime has an observer (docs/telemetry.md).
      ChatResponse response =
          run.called(
              ModelSpans.name(model),
              false,
              ModelSpans.attributes(model),
              () -> model.chat(request));
      AiMessage ai = response.aiMessage();
      fresh = cause(turn + 1, response);
      remember(run, conversation, Messages.ai(ai));
      if (!ai.hasToolExecutionRequests()) {
        finish(run, conversation, turn + 1, fresh);
      }
    }
  }

  /**
   * Calls every tool of the open turn that has no outcome yet; a non-null result stops the loop.
   */
  private DriveResult callTools(
      Run run,
      List<ChatMessage> conversation,
      AiMessage open,
      int turn,
      Cause cause,
      BooleanSupplier draining) {
    Set<String> answered = answered(conversation);
    List<ToolExecutionRequest> calls = open.toolExecutionRequests();
    for (int i = 0; i < calls.size(); i++) {
      ToolExecutionRequest call = calls.get(i);
      if (answered.contains(call.id())) {
        continue;
      }
      if (draining.getAsBoolean()) {
        return DriveResult.yielded("draining");
      }
      ToolOutcome out = call(run, cause, turn + "." + i, call);
      if (out.waiting()) {
        return DriveResult.waiting("approval for " + out.actionId(), null);
      }
      remember(run, conversation, Messages.toolResult(call.id(), call.name(), out.text()));
    }
    return null;
  }

  /** One tool call as action {@code turn-N.i}: resumed, replayed from the trace, or proposed. */
  private static ToolOutcome call(Run run, Cause cause, String index, ToolExecutionRequest call) {
    String actionId = "turn-" + index;
    PendingIntent pending = run.state().pending();
    if (pending != null && pending.action().actionId().equals(actionId)) {
      return execute(run, actionId);
    }
    boolean readOnly = readOnly(run, call.name());
    Optional<ActionOutcome> decided =
        readOnly ? run.latestOutcomeOf(actionId + READ_ATTEMPT) : run.outcomeOf(actionId);
    if (readOnly) {
      // A read or a verification commits its proposal (which may carry an earlier write's
      // receipt, D22) but nothing else until it has run: a crash after that commit leaves no
      // outcome and its id used, so it simply runs again under a fresh attempt id (D23).
      actionId = actionId + READ_ATTEMPT + run.generation();
    }
    if (decided.isPresent()) {
      return told(actionId, decided.get());
    }
    JsonValue parsed;
    try {
      parsed = Json.parse(call.arguments() == null ? "{}" : call.arguments(), JsonLimits.DEFAULT);
    } catch (RatchetException e) {
      return ToolOutcome.error(actionId, e);
    }
    if (!(parsed instanceof JsonObject args)) {
      return ToolOutcome.error(
          actionId, RatchetException.contract("arguments: must be a JSON object"));
    }
    try {
      Proposal p = run.propose(run.action(actionId, call.name(), args), cause);
      if (p.kind() == Proposal.Kind.REPLAYED) {
        return ToolOutcome.of(p.replay());
      }
      return execute(run, actionId);
    } catch (RatchetException e) {
      if (fatal(e)) {
        throw e;
      }
      return ToolOutcome.error(actionId, e);
    }
  }

  private static ToolOutcome execute(Run run, String actionId) {
    try {
      StepOutcome o = run.execute(actionId);
      if (o instanceof StepOutcome.Rejected) {
        return decided(run, actionId); // an approver rejected it: the model re-plans (ADR 0072)
      }
      if (o instanceof StepOutcome.AwaitingApproval waiting) {
        if (!waiting.expired()) {
          return ToolOutcome.waitingFor(actionId);
        }
        // Its approval expired before it ran: withdrawn, and the model is told so (ADR 0072).
        run.withdraw(actionId, "approval_expired");
        return decided(run, actionId);
      }
      return ToolOutcome.of(o);
    } catch (RatchetException e) {
      if (e.code() == ErrorCode.APPROVAL) {
        return ToolOutcome.waitingFor(actionId);
      }
      if (fatal(e)) {
        throw e;
      }
      return ToolOutcome.error(actionId, e);
    }
  }

  /** The model answered without a tool call: finish, or tell it why not. */
  private static void finish(Run run, List<ChatMessage> conversation, int turn, Cause cause) {
    try {
      run.apply(run.action("turn-" + turn + ".finish", "finish", JsonObject.EMPTY), cause);
    } catch (RatchetException e) {
      if (fatal(e)) {
        throw e;
      }
      remember(
          run, conversation, Messages.user("finish refused (" + e.code() + "): " + e.getMessage()));
    }
  }

  /** A decided call's outcome as the run records it: the tool's result after a crash, too. */
  private static ToolOutcome decided(Run run, String actionId) {
    return told(actionId, run.outcomeOf(actionId).orElseThrow());
  }

  private static ToolOutcome told(String actionId, ActionOutcome o) {
    return ToolOutcome.text(
        actionId,
        JsonObject.builder()
            .put("outcome", o.traced().wireName())
            .put("detail", o.detail())
            .build());
  }

  private static boolean fatal(RatchetException e) {
    return e.code() == ErrorCode.TERMINAL
        || e.code() == ErrorCode.CHECKPOINT
        || e.code() == ErrorCode.FENCED
        || e.code() == ErrorCode.STORE_UNAVAILABLE
        || e.code() == ErrorCode.INTERNAL;
  }

  /** Separates a read-only call's id from the attempt that ran it. */
  private static final String READ_ATTEMPT = ".g";

  private static boolean readOnly(Run run, String kind) {
    return run.actionSpecs().stream()
        .anyMatch(
            s -> s.kind().equals(kind) && s.actionClass() != dev.ratchet.adapter.ActionClass.WRITE);
  }

  private static Cause cause(int turn, ChatResponse response) {
    TokenUsage usage = response.tokenUsage();
    long tokens =
        usage == null || usage.totalTokenCount() == null ? 0 : usage.totalTokenCount().longValue();
    JsonObject body =
        JsonObject.builder()
            .put("response_id", response.id())
            .put("model", response.modelName())
            .put("message", Messages.ai(response.aiMessage()))
            .build();
    return new Cause(causeId(turn), CAUSE_KIND, body, tokens);
  }

  static String causeId(int turn) {
    return "turn-" + turn;
  }

  private static JsonObject reason(String text) {
    return JsonObject.builder().put("reason", text).build();
  }

  private static void remember(Run run, List<ChatMessage> conversation, JsonObject message) {
    run.remember(message);
    conversation.add(Messages.decode(message, "memory"));
  }

  private static int turns(List<ChatMessage> conversation) {
    return (int) conversation.stream().filter(m -> m instanceof AiMessage).count();
  }

  /** The last model message if some of its tool calls have no result yet, else null. */
  private static AiMessage openTurn(List<ChatMessage> conversation) {
    for (int i = conversation.size() - 1; i >= 0; i--) {
      if (conversation.get(i) instanceof AiMessage ai) {
        if (!ai.hasToolExecutionRequests()) {
          return null;
        }
        Set<String> answered = answered(conversation.subList(i, conversation.size()));
        for (ToolExecutionRequest r : ai.toolExecutionRequests()) {
          if (!answered.contains(r.id())) {
            return ai;
          }
        }
        return null;
      }
    }
    return null;
  }

  private static Set<String> answered(List<ChatMessage> messages) {
    Set<String> ids = new HashSet<>();
    for (ChatMessage m : messages) {
      if (m instanceof ToolExecutionResultMessage t) {
        ids.add(t.id());
      }
    }
    return ids;
  }

  /** Configures a {@link DurableAgent}. */
  public static final class Builder {
    private final ChatModel model;
    private String systemPrompt =
        "You are an agent. Use the tools; answer without a tool call when done.";
    private String goal;
    private int maxTurns = 50;

    private Builder(ChatModel model) {
      this.model = model;
    }

    public Builder systemPrompt(String s) {
      this.systemPrompt = s;
      return this;
    }

    /** The user's request: the conversation's first user message. */
    public Builder goal(String g) {
      this.goal = g;
      return this;
    }

    /** How many model responses the agent may get before it cancels the run. */
    public Builder maxTurns(int n) {
      if (n < 1) {
        throw RatchetException.contract("max_turns: must be >= 1");
      }
      this.maxTurns = n;
      return this;
    }

    public DurableAgent build() {
      return new DurableAgent(this);
    }
  }
}
