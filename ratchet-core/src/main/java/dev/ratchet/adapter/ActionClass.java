package dev.ratchet.adapter;

/** How the runtime treats an action kind. */
public enum ActionClass {
  /** Observes without changing anything; executed directly. */
  READ,
  /** Changes the environment; two-phase: intent committed, then executed once with its key. */
  WRITE,
  /** Produces verifier evidence bound to the revision it ran on. */
  VERIFY
}
