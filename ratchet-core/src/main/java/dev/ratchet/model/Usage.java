package dev.ratchet.model;

import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;

/** Spent budgets of a run; wall time is measured from {@code startedAtMs} on the injected clock. */
public record Usage(long proposals, long steps, long cost, long startedAtMs) {
  public Usage {
    if (proposals < 0 || steps < 0 || cost < 0 || startedAtMs < 0) {
      throw dev.ratchet.error.RatchetException.contract("usage: counters must be >= 0");
    }
  }

  public Usage withProposals(long n) {
    return new Usage(n, steps, cost, startedAtMs);
  }

  public Usage withSteps(long n) {
    return new Usage(proposals, n, cost, startedAtMs);
  }

  public Usage withCost(long n) {
    return new Usage(proposals, steps, n, startedAtMs);
  }

  public JsonObject toJson() {
    return JsonObject.builder()
        .put("proposals", proposals)
        .put("steps", steps)
        .put("cost", cost)
        .put("started_at_ms", startedAtMs)
        .build();
  }

  public static Usage fromJson(JsonValue v, String path) {
    Fields f = Fields.exact(v, path, "proposals", "steps", "cost", "started_at_ms");
    return new Usage(
        f.integer("proposals", 0, JsonInt.MAX_SAFE),
        f.integer("steps", 0, JsonInt.MAX_SAFE),
        f.integer("cost", 0, JsonInt.MAX_SAFE),
        f.integer("started_at_ms", 0, JsonInt.MAX_SAFE));
  }
}
