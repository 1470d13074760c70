package dev.ratchet.adapter;

/** What the runtime may assume about an action's effect when a crash interrupts it (SPEC D23). */
public enum EffectKind {
  /** Changes nothing; re-running it after a crash is harmless. */
  READ_ONLY,
  /**
   * A write the adapter can look up by its idempotency key: after a crash the runtime asks for the
   * receipt and never performs the effect twice.
   */
  RECEIPTED,
  /**
   * A write nothing can look up (a deploy command, a tool without idempotency): it runs at most
   * once. The runtime commits a started mark before calling it; recovery that finds the mark
   * without a result freezes the run for review ({@code uncertain_effect}) and never re-runs it.
   */
  UNRECEIPTED
}
