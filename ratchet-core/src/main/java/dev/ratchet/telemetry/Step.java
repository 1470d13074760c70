package dev.ratchet.telemetry;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One timed step of a run, as a span exporter needs it.
 *
 * @param kind what the step was
 * @param name the adapter operation for {@link Kind#ADAPTER_CALL} (observe, lookup, execute, read,
 *     verify); the kind's name otherwise
 * @param runId the run
 * @param actionId the action the step concerns, or null
 * @param generation the run's generation when the step began (for a commit: the one it creates)
 * @param start when the step began, by the runtime's clock
 * @param duration how long it took, by the runtime's clock
 * @param outcome {@code ok}, or what went wrong: an error code ({@code INTERNAL} for anything else
 *     thrown), or a refused commit's result kind ({@code LOST_RACE}, {@code FENCED})
 */
public record Step(
    Kind kind,
    String name,
    String runId,
    String actionId,
    long generation,
    Instant start,
    Duration duration,
    String outcome) {
  public Step {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(outcome, "outcome");
  }

  /** The step kinds: each becomes a span named {@code ratchet.<wire name>}. */
  public enum Kind {
    PROPOSE("propose"),
    COMMIT("commit"),
    ADAPTER_CALL("adapter_call"),
    RECOVERY("recovery");

    private final String wireName;

    Kind(String wireName) {
      this.wireName = wireName;
    }

    public String wireName() {
      return wireName;
    }
  }
}
