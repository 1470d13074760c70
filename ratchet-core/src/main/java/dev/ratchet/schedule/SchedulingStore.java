package dev.ratchet.schedule;

import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Scheduling rows and claims (SPEC D24, D33; ADR 0060, 0061, 0064). A run is scheduled (or
 * submitted with an operator's signed task) as <em>runnable</em>; a worker's {@link #claim} picks
 * the least recently touched claimable row — runnable, or waiting with a wake-up time that has
 * passed — whose lease is free or lapsed, and grants the run's lease to the worker with a fresh
 * token in the same step; the worker then {@link #park}s the run (waiting for an inbox item or a
 * time), {@link #finish}es it (ended) or leaves it runnable, and {@link #release}s the lease. An
 * inbox item delivered to a run makes its row runnable again (unless it ended) and counts a nudge.
 * A worker that cannot go on with a run says why on its row when it parks or ends it (issue 39); a
 * claim clears that reason.
 *
 * <p><b>Compare-and-set.</b> Every change of a row is judged by its row count: 0 means the caller
 * lost the race (another claimer took the row, an inbox item moved it on), 1 that it won; more is a
 * bug in the store and is thrown as {@code INTERNAL} ({@link RowCount}). Park and finish act only
 * under the claim's live lease and token ({@code FENCED} otherwise), so a worker that lost its
 * lease can change neither the row nor the run.
 *
 * <p>The row is a hint: a wrong hint costs a claim that finds nothing to do, never a wrong effect,
 * since every effect is fenced by the lease (D21). The store checks a submission's shape, never its
 * signature: it holds no trust root; the worker verifies it at every claim ({@link
 * SignedSubmission#verify}). Thread-safe; every change is durable when the call returns.
 */
public interface SchedulingStore extends LeaseStore {

  /** Enqueues a run for workers: its row is runnable under {@code driver}. */
  void schedule(String taskId, String runId, String driver, String taskRef);

  /**
   * Stores an operator's signed task for a new run and schedules the run under {@code driver} with
   * task reference {@link Claim#SUBMITTED}, in one transaction; {@code CONTRACT} when the run id is
   * taken (checkpointed, submitted or scheduled) or the envelope is over 1 MiB.
   */
  void submit(String taskId, String runId, String driver, SignedSubmission submission);

  /**
   * Every scheduling row, least recently touched first (what {@code status} shows of runs no worker
   * has started yet): a read that changes nothing.
   */
  List<ScheduledRun> scheduled();

  /** The signed task a run was submitted with, exactly as submitted; empty if not submitted. */
  Optional<SignedSubmission> submission(String taskId, String runId);

  /**
   * Claims one claimable run and grants its lease to {@code owner} for {@code ttl} with a fresh
   * token (taking over a lapsed lease); the row becomes runnable and touched, so a busy run goes to
   * the back of the line. Empty when nothing is claimable, or another claimer won the row.
   */
  Optional<Claim> claim(String owner, Duration ttl);

  /**
   * Claims the row of a run whose live {@code lease} the caller took without a claim (an operator's
   * {@code ratchet resume}, issue 39): the row becomes what {@link #claim} makes the row it picks —
   * runnable, touched, its reason cleared — and the returned claim carries the inbox count seen, so
   * the caller then {@link #park}s, {@link #finish}es or leaves the run runnable exactly as a
   * worker would, and a refusal said at an earlier claim is not shown after the run was driven by
   * hand. Empty, and nothing changes, when the run has no row or its row ended. {@code FENCED}
   * without the run's live lease and token. The default (a store that keeps no reasons) changes
   * nothing and returns empty.
   */
  default Optional<Claim> claimHeld(String taskId, String runId, Lease lease) {
    return Optional.empty();
  }

  /**
   * Parks a claimed run as waiting — for an inbox item, and until {@code wakeAt} when not null —
   * under its live {@code lease}; false (the row stays runnable) when an inbox item arrived since
   * the claim, so an approval that lands while the worker decides to wait is never slept over.
   */
  default boolean park(Claim claim, Lease lease, Instant wakeAt) {
    return park(claim, lease, wakeAt, null);
  }

  /**
   * {@link #park(Claim, Lease, Instant)}, and when {@code reason} is not null the row keeps it with
   * the time it was set, for operators ({@link ScheduledRun#reason()}, issue 39; cut to {@link
   * ScheduledRun#REASON_MAX} characters): why a worker could not go on with the run (a refusal at
   * claim), in words that say what to do next. The next claim of the row clears it; a null reason
   * leaves the row's reason as it is.
   */
  boolean park(Claim claim, Lease lease, Instant wakeAt, String reason);

  /** Marks a claimed run's row ended under its live {@code lease}: no worker claims it again. */
  default void finish(Claim claim, Lease lease) {
    finish(claim, lease, null);
  }

  /**
   * {@link #finish(Claim, Lease)}, and when {@code reason} is not null the row keeps it with the
   * time it was set ({@link ScheduledRun#reason()}, issue 39): why a worker ended a run it could
   * not start, in words that say what to do next. A null reason leaves the row's reason as it is.
   */
  void finish(Claim claim, Lease lease, String reason);

  /**
   * {@link #finish} then {@link #release} of the same {@code lease}, as one call where the store
   * can (PostgreSQL: one round trip, issue 38): what a worker does when a run ended.
   */
  default void finishAndRelease(Claim claim, Lease lease) {
    finish(claim, lease);
    release(lease);
  }

  /**
   * Wakes every waiting run (issue 39): its row becomes runnable whether it waited for an inbox
   * item or a time, and every row not ended counts a nudge, so a worker that judged a run before
   * the call cannot park it over the wake. For a change no inbox item announces that may let a
   * waiting run go on: a trust root that now trusts the signer of a decision the run refused. Ended
   * rows stay ended; listeners are told. A woken run with nothing new parks again after one claim.
   * Returns how many waiting rows were woken.
   */
  int wakeWaiting();

  /**
   * An optional capability: a listener told when a run may have become claimable (PostgreSQL's
   * {@code LISTEN ratchet_runnable}). Empty when the store offers none: callers poll. A wake-up is
   * a hint that a claim may succeed, never a claim.
   */
  default Optional<RunnableListener> listen() {
    return Optional.empty();
  }
}
