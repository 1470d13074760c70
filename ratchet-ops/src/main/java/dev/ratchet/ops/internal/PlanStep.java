package dev.ratchet.ops.internal;

import dev.ratchet.json.JsonObject;
import java.util.Objects;

/**
 * One step of a task file's plan. The run's plan cursor says which step is next; each proposal of a
 * step gets the action id {@code <id>#<proposal number>}, unique in the run even when a step is
 * proposed again after a replan.
 */
public record PlanStep(String id, String kind, JsonObject arguments) {
  public PlanStep {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(arguments, "arguments");
  }

  public String actionId(long proposalNumber) {
    return id + "#" + proposalNumber;
  }

  /** The step's target for progress lines: a path, a target name, or nothing. */
  public String target() {
    for (String k : new String[] {"path", "target", "url", "command", "reason"}) {
      if (arguments.get(k).orElse(null) instanceof dev.ratchet.json.JsonString s) {
        return s.value();
      }
    }
    return "";
  }
}
