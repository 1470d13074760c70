package dev.ratchet.outcome;

/**
 * What {@link dev.ratchet.Ratchet#resume} found and did: for operators, demos and the crash matrix.
 *
 * @param generation the generation recovery loaded (the mark)
 * @param found what the checkpoint and the live environment showed, e.g. {@code clean}, {@code
 *     intent_without_effect}, {@code effect_without_receipt}, {@code drift}
 * @param did what recovery did: {@code nothing}, {@code executed_once}, {@code reconciled}, {@code
 *     frozen}, {@code awaiting_approval}
 * @param outcome the outcome of the reconciliation step, or null
 * @param why for {@code awaiting_approval}: why no inbox approval was accepted (each refused item
 *     with its nonce, key id and reason); otherwise null
 */
public record Recovery(long generation, String found, String did, StepOutcome outcome, String why) {
  public Recovery(long generation, String found, String did, StepOutcome outcome) {
    this(generation, found, did, outcome, null);
  }
}
