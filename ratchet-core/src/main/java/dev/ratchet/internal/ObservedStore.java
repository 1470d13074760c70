package dev.ratchet.internal;

import dev.ratchet.json.Json;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonBool;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.ForwardingCheckpointStore;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import dev.ratchet.telemetry.RatchetObserver;
import dev.ratchet.telemetry.Step;
import java.time.InstantSource;

/**
 * A store that reports each commit (a timed step with its result), each fenced commit, and, once a
 * commit won, the trace events it made durable: their outcomes, the freeze among them and the inbox
 * items they refused. Reading the events from the commit keeps every report true to what is durable
 * and keeps telemetry out of the engine.
 */
public final class ObservedStore extends ForwardingCheckpointStore {
  private final RatchetObserver o;
  private final InstantSource clock;

  public ObservedStore(CheckpointStore d, RatchetObserver o, InstantSource clock) {
    super(d);
    this.o = o;
    this.clock = clock;
  }

  @Override
  public CommitResult commit(CommitRequest r) {
    String runId = r.scope().runId();
    CommitResult result =
        Observed.timed(
            o,
            clock,
            Step.Kind.COMMIT,
            Step.Kind.COMMIT.wireName(),
            runId,
            null,
            r.nextGeneration(),
            () -> delegate.commit(r),
            c -> c.kind() == CommitResult.Kind.COMMITTED ? "ok" : c.kind().name());
    if (result instanceof CommitResult.Fenced) {
      o.fenced(runId);
    } else if (result instanceof CommitResult.Committed) {
      for (StoredRecord rec : r.records()) {
        if (rec.set() == RecordSet.TRACE) {
          report(runId, (JsonObject) Json.parse(rec.body()));
        }
      }
    }
    return result;
  }

  private void report(String runId, JsonObject event) {
    String outcome = string(event, "outcome");
    o.traced(runId, string(event, "action_id"), outcome);
    if (!(event.get("detail").orElse(null) instanceof JsonObject detail)) {
      return;
    }
    if (detail.get("review_required").orElse(null) instanceof JsonBool b && b.value()) {
      o.frozen(runId, outcome);
    }
    if (detail.get(Refusals.FIELD).orElse(null) instanceof JsonArray refusals) {
      for (JsonValue v : refusals.items()) {
        if (v instanceof JsonObject refusal) {
          o.inboxRefused(runId, string(refusal, "reason"));
        }
      }
    }
  }

  private static String string(JsonObject o, String key) {
    return o.get(key).orElse(null) instanceof JsonString s ? s.value() : null;
  }
}
