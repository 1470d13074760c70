package dev.ratchet.seam;

/**
 * Every crash window the code has (SPEC D10). Tests inject a crash at each through a {@link
 * CrashSeam}; the crash matrix fails if any point is never injected.
 */
public enum CrashPoint {
  /** The previous checkpoint is complete; nothing about the next action is known. */
  BEFORE_PROPOSAL,
  /** The pending intent with its key is durable; the adapter has not been called. */
  AFTER_INTENT_COMMIT,
  /** The approval that authorises the pending write is consumed and durable; no adapter call. */
  AFTER_APPROVAL_COMMIT,
  /** Inside the adapter: the external write committed, the answer never reached the runtime. */
  ADAPTER_AFTER_EXTERNAL_COMMIT,
  /** The runtime holds the receipt in memory; it is not yet durable. */
  BEFORE_RECEIPT_COMMIT,
  /**
   * An unreceipted write (D23): its intent and {@code effect_started} mark are durable, the effect
   * is running or about to; recovery cannot know whether it happened.
   */
  AFTER_EFFECT_STARTED_COMMIT,
  /** An unreceipted write's effect returned; its result is in memory, not yet durable (D23). */
  UNRECEIPTED_RESULT_HELD,
  /**
   * The adapter's outcome is returned; its receipt and the state advance ride on the run's next
   * commit and are only in memory (D22). Recovery re-reads the receipt from the adapter.
   */
  RECEIPT_ONLY_IN_MEMORY,
  /**
   * Inside a commit that carries a write's receipt (the next intent, a read, finish, a flush before
   * the lease is released): sealed and lease-checked, the store not yet called (D22).
   */
  INSIDE_CARRYING_COMMIT,
  /**
   * The receipt and the state advance are durable with the commit that carried them (the next
   * intent, a read, finish or a flush, D11/D22); the caller was not told.
   */
  AFTER_RECEIPT_COMMIT,
  /** Inside a split store: content is written, the mark is not yet advanced. */
  STORE_BETWEEN_CONTENT_AND_MARK,
  /**
   * A batched commit (the commits of several runs in one call, ADR 0141) is assembled and not yet
   * sent: no run of it is committed.
   */
  STORE_BEFORE_BATCHED_COMMIT,
  /**
   * A batched commit returned: every run of it that won its compare-and-set is durable; no run has
   * been told its result.
   */
  STORE_AFTER_BATCHED_COMMIT,
  /**
   * A fork (D37) is verified and its new run's first commit (state, lineage, inherited set) sealed;
   * the store is not yet called: nothing of the fork exists.
   */
  FORK_BEFORE_COMMIT,
  /** The forked run's first commit is durable; whoever applied the fork was not told. */
  FORK_AFTER_COMMIT,
  /**
   * A forked run's write matched an inherited receipt: its replay and the receipt's use mark are
   * sealed, not yet durable. Nothing was sent, now or ever.
   */
  INHERITED_REPLAY_BEFORE_COMMIT
}
