package dev.ratchet;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.error.RatchetException;
import dev.ratchet.internal.Engine;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Action;
import dev.ratchet.model.RunState;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.Recovery;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.store.Lease;
import java.util.List;

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

  Run(Engine engine, Recovery recovery) {
    this.engine = engine;
    this.recovery = recovery;
  }

  /** Proposes an action: READY to execute, PENDING write (intent durable), or REPLAYED. */
  public Proposal propose(Action action) {
    return engine.propose(action);
  }

  /** Executes a READY action or the PENDING write with this action id. */
  public StepOutcome execute(String actionId) {
    return engine.execute(actionId);
  }

  /** Propose, then execute unless replayed: one call per agent step. */
  public StepOutcome apply(Action action) {
    Proposal p = propose(action);
    if (p.kind() == Proposal.Kind.REPLAYED) {
      return p.replay();
    }
    return execute(p.action().actionId());
  }

  /** Reconciles the pending write with the adapter's receipt, or executes it once if absent. */
  public StepOutcome reconcile() {
    return engine.reconcile();
  }

  /** Applies a signed reviewer decision delivered to this run's inbox. */
  public StepOutcome resolveReview() {
    return engine.resolveReview();
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
        engine.state().binding().revision(),
        pre,
        risk,
        engine.state().usage().proposals() + 100);
  }

  /** The committed control state (the payload of the current checkpoint). */
  public RunState state() {
    return engine.state();
  }

  /** The current checkpoint generation (the run's state version, D1). */
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

  /** Releases the lease; the run stays where its last checkpoint left it. */
  @Override
  public void close() {
    engine.ctx().leases().release(engine.lease());
  }
}
