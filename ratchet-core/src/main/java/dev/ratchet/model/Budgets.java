package dev.ratchet.model;

import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;

/**
 * Budget caps of a task (configuration, SPEC D6: up to 10^6 steps). Wall time runs on the injected
 * clock from the run's start, downtime included; cost is in integer units the task defines (for
 * example micro-dollars).
 */
public record Budgets(long maxProposals, long maxSteps, long maxWallTimeMs, long maxCost) {
  public static final long MAX_STEPS_CAP = 1_000_000;
  public static final long MAX_PROPOSALS_CAP = 5_000_000;

  public Budgets {
    check("max_steps", maxSteps, 1, MAX_STEPS_CAP);
    check("max_proposals", maxProposals, 1, MAX_PROPOSALS_CAP);
    check("max_wall_time_ms", maxWallTimeMs, 1, Long.MAX_VALUE);
    check("max_cost", maxCost, 0, Long.MAX_VALUE);
    if (maxProposals < maxSteps) {
      throw dev.ratchet.error.RatchetException.contract(
          "budgets.max_proposals: must be at least budgets.max_steps");
    }
  }

  private static void check(String name, long v, long min, long max) {
    if (v < min || v > max) {
      throw dev.ratchet.error.RatchetException.contract(
          "budgets." + name + ": must be an integer from " + min + " to " + max);
    }
  }

  public JsonObject toJson() {
    return JsonObject.builder()
        .put("max_proposals", maxProposals)
        .put("max_steps", maxSteps)
        .put("max_wall_time_ms", maxWallTimeMs)
        .put("max_cost", maxCost)
        .build();
  }

  public static Budgets fromJson(JsonValue v, String path) {
    Fields f = Fields.exact(v, path, "max_proposals", "max_steps", "max_wall_time_ms", "max_cost");
    return new Budgets(
        f.integer("max_proposals", 1, MAX_PROPOSALS_CAP),
        f.integer("max_steps", 1, MAX_STEPS_CAP),
        f.integer("max_wall_time_ms", 1, dev.ratchet.json.JsonInt.MAX_SAFE),
        f.integer("max_cost", 0, dev.ratchet.json.JsonInt.MAX_SAFE));
  }
}
