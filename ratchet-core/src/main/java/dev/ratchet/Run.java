package dev.ratchet;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.Observation;
import dev.ratchet.error.RatchetException;
import dev.ratchet.internal.ActionIndex;
import dev.ratchet.internal.Engine;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Action;
import dev.ratchet.model.Cause;
import dev.ratchet.model.RunState;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.outcome.ActionOutcome;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.Recovery;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.store.Lease;
import dev.ratchet.store.RecordMac;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One run, owned through a lease by this worker. Every method ends in at most one durable, fenced,
 * signed checkpoint commit; refusals are {@link RatchetException}s with stable codes and change
 * nothing; expected outcomes are returned as values.
 *
 * <p>Not thread-safe: a run is driven by one thread of the worker that holds its lease.
 */
public final class Run implements AutoCloseable {
  private final Engine engine;
  private final Recovery recovery;
  private final dev.ratchet.telemetry.RatchetObserver observer;
  private final String taskId;
  private final String runId;
  private Observation observed;
  private long observedAt;

  Run(Engine engine, Recovery recovery, dev.ratchet.telemetry.RatchetObserver observer) {
    this.observer = observer;
    this.engine = engine;
    this.recovery = recovery;
    this.taskId = engine.state().taskId();
    this.runId = engine.state().runId();
  }

  /**
   * True when an operator's pause or cancel waits in the run's inbox (D37): one inbox read that
   * touches only the store, so a worker may ask from its renewal thread, at that cadence rather
   * than per step (D22). The driver then stops at the next step boundary, and the run's next
   * recovery consumes the item under the lease.
   */
  public boolean stopRequested() {
    for (dev.ratchet.store.InboxItem item : engine.ctx().store().inbox(taskId, runId)) {
      if (item.kind() == dev.ratchet.store.InboxItem.Kind.PAUSE
          || item.kind() == dev.ratchet.store.InboxItem.Kind.CANCEL) {
        return true;
      }
    }
    return false;
  }

  /** Proposes an action: READY to execute, PENDING write (intent durable), or REPLAYED. */
  public Proposal propose(Action action) {
    return proposing(action, () -> engine.propose(action));
  }

  /** Executes a READY action or the PENDING write with this action id. */
  public StepOutcome execute(String actionId) {
    return engine.execute(actionId);
  }

  /** Executes what {@link #propose} returned: a REPLAYED proposal returns its replay. */
  public StepOutcome execute(Proposal proposal) {
    if (proposal.kind() == Proposal.Kind.REPLAYED) {
      return proposal.replay();
    }
    return execute(proposal.action().actionId());
  }

  /** Propose, then execute unless replayed: one call per agent step. */
  public StepOutcome apply(Action action) {
    return execute(propose(action));
  }

  /**
   * Proposes an action a decision led to (SPEC D25): the {@link Cause} (a model response with its
   * tool calls, an MCP request) is committed once, in this proposal's commit, with its cost. A null
   * cause is {@link #propose(Action)}.
   */
  public Proposal propose(Action action, Cause cause) {
    return proposing(action, () -> engine.propose(action, cause));
  }

  /** {@link #propose(Action, Cause)}, then execute unless replayed. */
  public StepOutcome apply(Action action, Cause cause) {
    return execute(propose(action, cause));
  }

  /** The action kinds the run's adapter offers, by kind (agent tool lists, MCP schemas). */
  public List<ActionSpec> actionSpecs() {
    return engine.ctx().specs().values().stream()
        .sorted(java.util.Comparator.comparing(ActionSpec::kind))
        .toList();
  }

  /** The committed causes, in commit order, authenticated against the signed head (D20). */
  public List<Cause> causes() {
    List<Cause> out = new ArrayList<>();
    for (JsonObject body : engine.records(RecordSet.CAUSES)) {
      out.add(Cause.fromJson(body, "causes[" + out.size() + "]"));
    }
    return List.copyOf(out);
  }

  /** The committed cause with this id, if any. */
  public Optional<Cause> cause(String causeId) {
    return causes().stream().filter(c -> c.causeId().equals(causeId)).findFirst();
  }

  /**
   * Keeps a conversation-memory entry (D25): it rides on the run's next commit. If the process dies
   * first it is lost, and the agent may ask its model again.
   */
  public void remember(JsonObject message) {
    engine.remember(message);
  }

  /** The committed conversation memory, in order, authenticated against the signed head (D20). */
  public List<JsonObject> memory() {
    return engine.records(RecordSet.MEMORY);
  }

  /** Reconciles the pending write with the adapter's receipt, or executes it once if absent. */
  public StepOutcome reconcile() {
    return engine.reconcile();
  }

  /** Applies a signed reviewer decision delivered to this run's inbox. */
  public StepOutcome resolveReview() {
    return engine.resolveReview();
  }

  /**
   * Ends this running run {@code failed} because the caller (its driver) cannot get past {@code
   * refusal}, a policy refusal ({@code PERMISSION}, {@code CONTRACT}, {@code STALE_OBSERVATION},
   * {@code VERIFICATION}) it got from this run (ADR 0050). The reason is {@code refused_<code>};
   * the code and message are traced. Refused ({@code CONTRACT}) while a write is pending.
   */
  public void fail(RatchetException refusal) {
    engine.failPermanently(refusal);
  }

  /**
   * Drops the pending write {@code actionId} while it waits for its approval, for example because
   * the approval expired (ADR 0072): traced {@code intent_withdrawn} with {@code reason}. Refused
   * ({@code CONTRACT}) unless the write needs an approval, has none, and the adapter holds no
   * receipt under its key. Returns what a caller tells its driver (a model: as the tool's result).
   */
  public StepOutcome.Rejected withdraw(String actionId, String reason) {
    return dev.ratchet.internal.Rejections.withdraw(engine, actionId, reason);
  }

  /** Adds caller-measured spend (for example model tokens) to the cost budget. */
  public void reportCost(long units) {
    engine.reportCost(units);
  }

  /**
   * An action for {@code kind} planned against the run's current environment binding, with the risk
   * the kind requires and a deadline 100 proposals ahead.
   */
  public Action action(String actionId, String kind, JsonObject arguments) {
    ActionSpec spec = engine.ctx().specs().get(kind);
    String risk = spec == null ? "control" : spec.risk();
    List<String> pre = "cancel".equals(kind) ? List.of() : List.of(Action.REVISION_MATCHES);
    return new Action(
        actionId,
        kind,
        arguments,
        null,
        stampRevision(),
        pre,
        risk,
        engine.state().usage().proposals() + 100);
  }

  /**
   * Reads the live environment (under a checked lease; commits nothing) and stamps the actions
   * {@link #action} builds from now on with its revision, until the next commit moves the run's
   * binding. After an outside change this is what un-sticks an agent loop: a proposal stamped with
   * the live revision is accepted and rebinds the run.
   */
  public Observation observe() {
    Observation live = engine.observeLive();
    observed = live;
    observedAt = engine.generation();
    return live;
  }

  private long stampRevision() {
    if (observed != null && observedAt == engine.generation()) {
      return observed.revision();
    }
    return engine.state().binding().revision();
  }

  /**
   * The run's trace, in order (a copy): the committed events read from the store, each
   * authenticated as {@code verify} does (D20: the chain is recomputed to the signed head, and an
   * event sealed under a key since removed or revoked authenticates through that head, ADR 0032),
   * then those riding on the run's next commit with a completed write's receipt (D22).
   */
  public List<TraceEvent> trace() {
    RunState s = engine.committed();
    List<TraceEvent> out = new ArrayList<>();
    for (JsonObject body : engine.records(RecordSet.TRACE)) {
      out.add(TraceEvent.fromJson(body, "trace[" + (out.size() + 1) + "]"));
    }
    for (StoredRecord r : engine.carriedRecords(RecordSet.TRACE)) {
      out.add(
          TraceEvent.fromJson(
              RecordMac.open(engine.ctx().keys(), s.taskId(), s.runId(), r),
              "trace[" + r.sequence() + "]"));
    }
    return List.copyOf(out);
  }

  /**
   * What became of action {@code actionId} (SPEC D32): done (executed, replayed, reconciled),
   * pending, awaiting approval, rejected, frozen, or refused with its code; empty when the run
   * never decided anything about it. Answered from an index of the run's authenticated trace kept
   * in memory (built on first use, then kept current by every commit), never by a scan.
   */
  public Optional<ActionOutcome> outcomeOf(String actionId) {
    return ActionIndex.outcomeOf(engine, actionId, false);
  }

  /**
   * {@link #outcomeOf} of the latest action whose id starts with {@code actionIdPrefix}: the last
   * attempt of a step retried under fresh ids (an agent's read, D23).
   */
  public Optional<ActionOutcome> latestOutcomeOf(String actionIdPrefix) {
    return ActionIndex.outcomeOf(engine, actionIdPrefix, true);
  }

  /**
   * Makes every completed write's receipt durable now (D22: it otherwise rides on the run's next
   * commit). A driver calls it before it gives the run up (waits, yields, drains); {@link #close}
   * calls it too. A no-op when nothing rides.
   */
  public void flush() {
    engine.flush();
  }

  /**
   * The control state as the run stands: the payload of the current checkpoint, or, while a
   * completed write's receipt rides on the next commit (D22), the state that commit makes durable.
   */
  public RunState state() {
    return engine.state();
  }

  /**
   * The task this run runs under: the one its checkpoint signs (D37). After a signed migration it
   * is the new task, whichever task the caller resumed with.
   */
  public dev.ratchet.model.TaskSpec task() {
    return engine.ctx().task();
  }

  /**
   * The host's task file carried by the signed migration that moved this run to {@link #task()}
   * (e.g. a CLI task file with its plan); empty when the run was never migrated or none was
   * carried.
   */
  public java.util.Optional<dev.ratchet.json.JsonObject> migratedTaskFile() {
    return engine.migratedTaskFile();
  }

  /** The current durable checkpoint generation (the run's state version, D1). */
  public long generation() {
    return engine.generation();
  }

  public Lease lease() {
    return engine.lease();
  }

  /** What recovery found and did when this run was resumed; null for a new run. */
  public Recovery recovery() {
    return recovery;
  }

  /**
   * Waits for an unreceipted effect in flight on another thread to return and commit (D23), makes
   * any carried receipt durable ({@link #flush}), then releases the lease; the run stays where its
   * last checkpoint left it. A receipt that cannot be made durable keeps the lease until it lapses
   * (never released before it, D22); recovery then reconciles it from the adapter.
   */
  @Override
  public void close() {
    engine.awaitNoEffectInFlight(); // D23: never release a lease under a running unreceipted effect
    engine.flush();
    engine.ctx().leases().release(engine.lease());
  }

  /**
   * Runs {@code body}, a call made for this run outside its steps (a model call, an MCP tool call),
   * and reports it to the run's observer as a span named {@code spanName} with {@code attributes}
   * ({@code received}: a call this run's host served, such as an MCP server's tool call)
   * (OpenTelemetry's GenAI and MCP conventions: names and model ids only, never a prompt, an
   * argument or a result), timed by the runtime's clock. Without an observer it only runs it.
   */
  public <T> T called(
      String spanName,
      boolean received,
      java.util.Map<String, String> attributes,
      java.util.function.Supplier<T> body) {
    if (observer == dev.ratchet.telemetry.RatchetObserver.NONE) {
      return body.get();
    }
    java.time.InstantSource clock = engine.ctx().clock();
    java.time.Instant start = clock.instant();
    String outcome = dev.ratchet.error.ErrorCode.INTERNAL.name();
    try {
      T result = body.get();
      outcome = "ok";
      return result;
    } catch (RatchetException e) {
      outcome = e.code().name();
      throw e;
    } finally {
      observer.called(
          new dev.ratchet.telemetry.ExternalCall(
              spanName,
              received,
              engine.state().runId(),
              attributes,
              start,
              java.time.Duration.between(start, clock.instant()),
              outcome));
    }
  }

  /** A proposal, reported as a timed step when an observer is configured. */
  private Proposal proposing(Action action, java.util.function.Supplier<Proposal> body) {
    if (observer == dev.ratchet.telemetry.RatchetObserver.NONE) {
      return body.get();
    }
    return dev.ratchet.internal.Observed.timed(
        observer,
        engine.ctx().clock(),
        dev.ratchet.telemetry.Step.Kind.PROPOSE,
        dev.ratchet.telemetry.Step.Kind.PROPOSE.wireName(),
        engine.state().runId(),
        action.actionId(),
        engine.generation(),
        body);
  }
}
