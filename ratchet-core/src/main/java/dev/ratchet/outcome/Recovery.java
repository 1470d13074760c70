package dev.ratchet.outcome;

import dev.ratchet.model.Phase;

/**
 * What {@link dev.ratchet.Ratchet#resume} found and did: for operators, demos and the crash matrix.
 * Both are enums whose {@code toString()} is their snake_case wire name, so printed reports read as
 * before ({@code found=clean did=nothing}).
 *
 * @param generation the generation recovery loaded (the mark)
 * @param found what the checkpoint and the live environment showed
 * @param did what recovery did
 * @param outcome the outcome of the reconciliation step, or null
 * @param why for {@code awaiting_approval}: why no inbox approval was accepted (each refused item
 *     with its nonce, key id and reason); otherwise null
 */
public record Recovery(long generation, Found found, Did did, StepOutcome outcome, String why) {
  public Recovery(long generation, Found found, Did did, StepOutcome outcome) {
    this(generation, found, did, outcome, null);
  }

  public Recovery {
    java.util.Objects.requireNonNull(found, "found");
    java.util.Objects.requireNonNull(did, "did");
  }

  /** What the checkpoint and the live environment showed at recovery. */
  public enum Found {
    /** Running, nothing pending, the environment exactly as bound. */
    CLEAN("clean"),
    /** A pending write and an unchanged environment: the write never happened. */
    INTENT_WITHOUT_EFFECT("intent_without_effect"),
    /** A pending write, a changed environment and a receipt under the key. */
    EFFECT_WITHOUT_RECEIPT("effect_without_receipt"),
    /** An unreceipted write started without a committed result (D23): it may have happened. */
    EFFECT_STARTED("effect_started"),
    /** The environment changed and nothing the run did explains it. */
    DRIFT("drift"),
    /** The run was already frozen for review. */
    NEEDS_REVIEW("needs_review"),
    /** The run was paused by an operator and no signed unpause was waiting. */
    PAUSED("paused"),
    /** The run had completed. */
    COMPLETED("completed"),
    /** The run had been cancelled. */
    CANCELLED("cancelled"),
    /** The run had failed. */
    FAILED("failed");

    private final String wireName;

    Found(String wireName) {
      this.wireName = wireName;
    }

    public String wireName() {
      return wireName;
    }

    /** The finding for a run that is no longer running. */
    public static Found ofStoppedPhase(Phase phase) {
      for (Found f : values()) {
        if (f.wireName.equals(phase.wireName())) {
          return f;
        }
      }
      throw new IllegalArgumentException("phase " + phase.wireName() + " is not a stopped phase");
    }

    @Override
    public String toString() {
      return wireName;
    }
  }

  /** What recovery did about it. */
  public enum Did {
    NOTHING("nothing"),
    EXECUTED_ONCE("executed_once"),
    RECONCILED("reconciled"),
    FROZEN("frozen"),
    /** A signed operator cancel ended the run (nothing was pending). */
    CANCELLED("cancelled"),
    /** A signed operator pause stopped the run (nothing was pending). */
    PAUSED("paused"),
    /** An approver's signed rejection dropped the unapproved pending write (ADR 0072). */
    REJECTED("rejected"),
    /** The pending write needs an approval no valid inbox item supplies; it stays pending. */
    AWAITING_APPROVAL("awaiting_approval");

    private final String wireName;

    Did(String wireName) {
      this.wireName = wireName;
    }

    public String wireName() {
      return wireName;
    }

    @Override
    public String toString() {
      return wireName;
    }
  }
}
