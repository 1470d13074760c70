package dev.ratchet.internal;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.model.TraceOutcome;
import dev.ratchet.outcome.ActionOutcome;
import dev.ratchet.outcome.StepOutcome.Kind;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What became of each action of one run, kept in memory (SPEC D32): built once from the run's
 * authenticated trace, then folded forward with the events of every commit, so {@code outcomeOf} is
 * a map lookup however long the trace grows. Informational events (a redaction, a cost report, a
 * refused inbox item) never replace an action's deciding event.
 */
public final class ActionIndex {
  private final Map<String, ActionOutcome> byId = new HashMap<>();

  /** The same entries in id order, for the latest of several attempts under one prefix. */
  private final NavigableMap<String, Long> sequenceById = new TreeMap<>();

  private final Map<String, String[]> accepted = new HashMap<>();

  ActionIndex(List<TraceEvent> trace) {
    addAll(trace);
  }

  /**
   * The index of {@code engine}'s committed trace, each event authenticated as it is read (D20).
   */
  static ActionIndex of(Engine engine) {
    List<TraceEvent> trace = new java.util.ArrayList<>();
    for (JsonObject body : engine.records(dev.ratchet.store.RecordSet.TRACE)) {
      trace.add(TraceEvent.fromJson(body, "trace[" + (trace.size() + 1) + "]"));
    }
    return new ActionIndex(trace);
  }

  /**
   * What became of {@code actionId} (with {@code prefix}: of the latest action whose id starts with
   * it) in {@code engine}'s run: the events riding on the next commit (D22) first, then the index.
   */
  public static Optional<ActionOutcome> outcomeOf(Engine engine, String actionId, boolean prefix) {
    List<TraceEvent> riding = engine.ridingEvents();
    if (!riding.isEmpty()) {
      ActionIndex next = new ActionIndex(riding);
      Optional<ActionOutcome> found = prefix ? next.latest(actionId) : next.get(actionId);
      if (found.isPresent()) {
        return found;
      }
    }
    ActionIndex committed = engine.actions();
    return prefix ? committed.latest(actionId) : committed.get(actionId);
  }

  void addAll(List<TraceEvent> events) {
    for (TraceEvent e : events) {
      add(e);
    }
  }

  private void add(TraceEvent e) {
    String id = e.actionId();
    if (id == null) {
      return;
    }
    if (e.outcome() == TraceOutcome.ACCEPTED_PENDING) {
      accepted.putIfAbsent(
          id,
          new String[] {text(e.detail(), "idempotency_key"), text(e.detail(), "intent_digest")});
    }
    Kind kind = kindOf(e.outcome());
    if (kind == null) {
      return;
    }
    String[] write = accepted.getOrDefault(id, new String[2]);
    byId.put(
        id,
        new ActionOutcome(
            id,
            kind,
            e.outcome(),
            e.detail(),
            write[0],
            write[1],
            kind == Kind.REFUSED ? codeOf(e) : null));
    sequenceById.put(id, e.sequence());
  }

  Optional<ActionOutcome> get(String actionId) {
    return Optional.ofNullable(byId.get(actionId));
  }

  /** The most recently decided action whose id starts with {@code prefix}. */
  Optional<ActionOutcome> latest(String prefix) {
    String best = null;
    long bestSeq = -1;
    for (Map.Entry<String, Long> en : sequenceById.tailMap(prefix, true).entrySet()) {
      if (!en.getKey().startsWith(prefix)) {
        break;
      }
      if (en.getValue() > bestSeq) {
        bestSeq = en.getValue();
        best = en.getKey();
      }
    }
    return best == null ? Optional.empty() : get(best);
  }

  /** The kind a deciding trace outcome means for its action; null for an informational one. */
  static Kind kindOf(TraceOutcome o) {
    switch (o) {
      case EXECUTED:
      case COMPLETED:
      case CANCELLED:
      case OPERATOR_CANCELLED:
        return Kind.EXECUTED;
      case REPLAYED:
        return Kind.REPLAYED;
      case RECONCILED:
        return Kind.RECONCILED;
      case ACCEPTED_PENDING:
      case APPROVAL_CONSUMED:
      case APPROVAL_REFRESHED:
      case EFFECT_STARTED:
        return Kind.PENDING;
      case AWAITING_APPROVAL:
        return Kind.AWAITING_APPROVAL;
      case INTENT_REJECTED:
      case INTENT_WITHDRAWN:
      case REVIEW_REPLANNED:
      case REVIEW_ABORTED:
        return Kind.REJECTED;
      case ENVIRONMENT_DRIFT:
      case IDEMPOTENCY_CONFLICT:
      case RECEIPT_UNBOUND:
      case UNCERTAIN_EFFECT:
      case CANCEL_REQUESTED:
        return Kind.FROZEN;
      case PERMISSION_DENIED:
      case APPROVAL_REJECTED:
      case STALE_OBSERVATION:
      case CONTRACT_REJECTED:
      case EXECUTION_ERROR:
      case PROPOSAL_BUDGET_EXHAUSTED:
      case STEP_BUDGET_EXHAUSTED:
      case WALL_TIME_EXHAUSTED:
      case COST_BUDGET_EXHAUSTED:
      case PERMANENTLY_REFUSED:
        return Kind.REFUSED;
      default:
        return null; // started, cost, redaction, resign, refused inbox items: not about the action
    }
  }

  /** The refusal's code as traced ({@code error_code}), else the one its outcome implies. */
  private static ErrorCode codeOf(TraceEvent e) {
    String code = text(e.detail(), "error_code");
    if (code != null) {
      for (ErrorCode c : ErrorCode.values()) {
        if (c.name().equals(code)) {
          return c;
        }
      }
    }
    switch (e.outcome()) {
      case PERMISSION_DENIED:
        return ErrorCode.PERMISSION;
      case APPROVAL_REJECTED:
        return ErrorCode.APPROVAL;
      case STALE_OBSERVATION:
        return ErrorCode.STALE_OBSERVATION;
      case PERMANENTLY_REFUSED:
        return ErrorCode.TERMINAL;
      default:
        return ErrorCode.CONTRACT;
    }
  }

  private static String text(JsonObject o, String key) {
    return o.get(key)
        .filter(JsonString.class::isInstance)
        .map(v -> ((JsonString) v).value())
        .orElse(null);
  }
}
