package dev.ratchet.model;

import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.json.Text;
import java.util.Objects;

/**
 * One trace event: an append-only, hash-chained audit record kept in the store beside the
 * checkpoint (SPEC D6). {@code environmentRevision} is the adapter revision after the event's
 * effect.
 */
public record TraceEvent(
    long sequence,
    long atMs,
    long proposalCount,
    String actionId,
    String kind,
    String outcome,
    long environmentRevision,
    JsonObject detail) {

  public TraceEvent {
    if (sequence < 1) {
      throw dev.ratchet.error.RatchetException.contract("trace.sequence: must be >= 1");
    }
    Text.require("trace.outcome", outcome);
    Objects.requireNonNull(detail, "detail");
  }

  public JsonObject toJson() {
    return JsonObject.builder()
        .put("sequence", sequence)
        .put("at_ms", atMs)
        .put("proposal_count", proposalCount)
        .put("action_id", opt(actionId))
        .put("kind", opt(kind))
        .put("outcome", outcome)
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
        f.text("outcome"),
        f.integer("environment_revision", 0, Long.MAX_VALUE),
        f.obj("detail"));
  }

  private static JsonValue opt(String s) {
    return s == null ? JsonNull.INSTANCE : new JsonString(s);
  }
}
