package dev.ratchet.telemetry;

import dev.ratchet.outcome.Recovery;

/**
 * What the runtime tells an operator's tools as it works (docs/telemetry.md): timed steps (spans),
 * trace outcomes, recoveries, freezes, fenced commits, refused inbox items and lost leases. Core
 * depends on no metrics or tracing library; bindings live at the edge (ratchet-telemetry). Every
 * method has a no-op default, so an observer overrides only what it records.
 *
 * <p>Calls carry ids, kinds, generations and reasons only: never a key, a lease token, an
 * idempotency key or an action's arguments (they may hold secrets). An observer must not throw and
 * must return quickly; it runs on the worker's thread.
 */
public interface RatchetObserver {
  /** Observes nothing: the default of {@link dev.ratchet.Ratchet.Builder#observer}. */
  RatchetObserver NONE = new RatchetObserver() {};

  /** A timed step finished (a span): a proposal, a commit, an adapter call or a recovery. */
  default void step(Step step) {}

  /** A model call or an MCP tool call made for a run finished (a span; GenAI/MCP conventions). */
  default void called(ExternalCall call) {}

  /** A trace event became durable (its commit won): one per event, by outcome. */
  default void traced(String runId, String actionId, String outcome) {}

  /** {@link dev.ratchet.Ratchet#resume} found and did this. */
  default void recovered(String runId, Recovery.Found found, Recovery.Did did) {}

  /** The run froze in {@code needs_review} for this reason (the trace outcome that froze it). */
  default void frozen(String runId, String reason) {}

  /** A commit was refused because its fence is not the current lease. */
  default void fenced(String runId) {}

  /** A worker refused an inbox item (approval or decision) for this reason. */
  default void inboxRefused(String runId, String reason) {}

  /** A lease renewal was refused: the worker no longer owns the run. */
  default void leaseLost(String runId) {}
}
