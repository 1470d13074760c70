package dev.ratchet.sign;

/** Who a trust root speaks for; roots of different roles never stand in for each other. */
public enum Role {
  APPROVER("approver"),
  REVIEWER("reviewer");

  private final String noun;

  Role(String noun) {
    this.noun = noun;
  }

  public String noun() {
    return noun;
  }
}
