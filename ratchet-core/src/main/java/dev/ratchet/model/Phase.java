package dev.ratchet.model;

/** The phase of a run (SPEC §1). Terminal phases accept no proposal and no execution. */
public enum Phase {
  RUNNING("running"),
  NEEDS_REVIEW("needs_review"),
  /** Stopped by an operator's signed pause (D37): holds no lease until a signed unpause. */
  PAUSED("paused"),
  COMPLETED("completed"),
  CANCELLED("cancelled"),
  FAILED("failed");

  private final String wireName;

  Phase(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  public boolean terminal() {
    return this == COMPLETED || this == CANCELLED || this == FAILED;
  }

  public static Phase fromWireName(String s, String path) {
    for (Phase p : values()) {
      if (p.wireName.equals(s)) {
        return p;
      }
    }
    throw dev.ratchet.error.RatchetException.contract(path + ": unknown phase '" + s + "'");
  }
}
