package dev.ratchet.sign;

/**
 * Who a trust root speaks for; roots of different roles never stand in for each other. Operators
 * sign run-lifecycle decisions (cancel, submitted tasks: SPEC D19, D24).
 */
public enum Role {
  APPROVER("approver"),
  REVIEWER("reviewer"),
  OPERATOR("operator");

  private final String noun;

  Role(String noun) {
    this.noun = noun;
  }

  public String noun() {
    return noun;
  }

  /** The role whose noun is {@code noun}; empty when none is. */
  public static java.util.Optional<Role> ofNoun(String noun) {
    for (Role r : values()) {
      if (r.noun.equals(noun)) {
        return java.util.Optional.of(r);
      }
    }
    return java.util.Optional.empty();
  }
}
