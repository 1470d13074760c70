package dev.ratchet.store;

/**
 * The growing sets of a run (SPEC D6). They live in the store beside the checkpoint, each as an
 * append-only, hash-chained sequence; the checkpoint signs each set's count and chain head.
 */
public enum RecordSet {
  /** The trace: one record per event, keyed by its sequence number. */
  TRACE("trace"),
  /** Completed-write receipts, keyed by idempotency key. */
  RECEIPTS("receipts"),
  /** Consumed approval and reviewer nonces, keyed by nonce. */
  NONCES("nonces"),
  /** Every action id ever proposed in the run (ids are burned even when rejected). */
  ACTION_IDS("action_ids"),
  /** Idempotency keys a reviewer quarantined; never usable again in the run. */
  QUARANTINED_KEYS("quarantined_keys"),
  /** Decisions that led to actions (D25): model responses, MCP requests; keyed by cause id. */
  CAUSES("causes", true),
  /** An agent's conversation memory (D25), keyed by its sequence number. */
  MEMORY("memory", true),
  /**
   * A forked run's inheritance from its source (D37, ADR 0130): the source's receipts keyed {@code
   * receipt:<action id>}, consumed nonces ({@code nonce:}) and quarantined keys ({@code
   * quarantined:}) as evidence, and a use mark {@code used:<action id>} for each receipt replayed.
   */
  INHERITED("inherited", true);

  private final String wireName;
  private final boolean optional;

  RecordSet(String wireName) {
    this(wireName, false);
  }

  RecordSet(String wireName, boolean optional) {
    this.wireName = wireName;
    this.optional = optional;
  }

  /**
   * Sets added after the first checkpoint format: a checkpoint names them only once they hold a
   * record, so checkpoints of runs that never use them stay byte-identical to the first format.
   */
  public boolean optional() {
    return optional;
  }

  /** The name used in checkpoints and database rows. */
  public String wireName() {
    return wireName;
  }

  public static RecordSet fromWireName(String name) {
    for (RecordSet s : values()) {
      if (s.wireName.equals(name)) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown record set: " + name);
  }
}
