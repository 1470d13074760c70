package dev.ratchet.model;

import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import java.util.Objects;

/**
 * One trace event: an append-only, hash-chained audit record kept in the store beside the
 * checkpoint (SPEC D6). {@code environmentRevision} is the adapter revision after the event's
 * effect. {@code outcome} is stored as its {@link TraceOutcome#wireName()}, so the canonical bytes
 * are those of the string it was before.
 */
public record TraceEvent(
    long sequence,
    long atMs,
    long proposalCount,
    String actionId,
    String kind,
    TraceOutcome outcome,
    long environmentRevision,
    JsonObject detail) {

  public TraceEvent {
    if (sequence < 1) {
      throw dev.ratchet.error.RatchetException.contract("trace.sequence: must be >= 1");
    }
    Objects.requireNonNull(outcome, "trace.outcome");
    Objects.requireNonNull(detail, "detail");
  }

  public JsonObject toJson() {
    return JsonObject.builder()
        .put("sequence", sequence)
        .put("at_ms", atMs)
        .put("proposal_count", proposalCount)
        .put("action_id", opt(actionId))
        .put("kind", opt(kind))
        .put("outcome", outcome.wireName())
        .put("environment_revision", environmentRevision)
        .put("detail", detail)
        .build();
  }

  public static TraceEvent fromJson(JsonValue v, String path) {
    Fields f =
        Fields.exact(
            v,
            path,
            "sequence",
            "at_ms",
            "proposal_count",
            "action_id",
            "kind",
            "outcome",
            "environment_revision",
            "detail");
    return new TraceEvent(
        f.integer("sequence", 1, Long.MAX_VALUE),
        f.integer("at_ms", 0, Long.MAX_VALUE),
        f.integer("proposal_count", 0, Long.MAX_VALUE),
        f.isNull("action_id") ? null : f.string("action_id"),
        f.isNull("kind") ? null : f.string("kind"),
        outcome(f),
        f.integer("environment_revision", 0, Long.MAX_VALUE),
        f.obj("detail"));
  }

  /** The stored wire name as the enum; a name no release wrote is refused, naming the field. */
  private static TraceOutcome outcome(Fields f) {
    String name = f.text("outcome");
    return TraceOutcome.fromWireName(name)
        .orElseThrow(
            () ->
                dev.ratchet.error.RatchetException.contract(
                    f.path("outcome") + ": '" + name + "' is not a trace outcome"));
  }

  private static JsonValue opt(String s) {
    return s == null ? JsonNull.INSTANCE : new JsonString(s);
  }
}
