package dev.ratchet.model;

import dev.ratchet.adapter.Observation;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.json.Text;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.SetHead;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The run's whole control state: the payload of every checkpoint (SPEC §2). It is bounded (D6): the
 * growing sets live in the store and appear here only as their signed count and chain head. It
 * never holds a key.
 *
 * @param binding the last environment observation the run accepted
 * @param cursor the number of actions completed so far (the plan cursor)
 * @param keySalt the run's 256-bit idempotency-key salt (ADR 0031): every write's key is a MAC of
 *     its action id under it, so a re-proposed action id always gets the key of its earlier effect;
 *     null only in a run started before schema version 2 (its keys stay random)
 */
public record RunState(
    String runId,
    String taskId,
    String taskVersion,
    String taskFingerprint,
    String policyId,
    String policyVersion,
    Phase phase,
    String stopReason,
    long cursor,
    Usage usage,
    Observation binding,
    VerifiedEvidence verified,
    PendingIntent pending,
    ReviewCase review,
    Map<RecordSet, SetHead> sets,
    String keySalt) {

  /** The version this code writes; a state without a key salt is still written as version 1. */
  public static final long SCHEMA_VERSION = 2;

  /** The oldest version this code reads (ADR 0031: a version-1 run keeps random keys). */
  public static final long OLDEST_SCHEMA_VERSION = 1;

  public RunState {
    Text.require("run_id", runId);
    Text.require("task_id", taskId);
    Text.require("task_version", taskVersion);
    Text.requireHex64("task_fingerprint", taskFingerprint);
    Text.require("policy_id", policyId);
    Text.require("policy_version", policyVersion);
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(usage, "usage");
    Objects.requireNonNull(binding, "binding");
    EnumMap<RecordSet, SetHead> copy = new EnumMap<>(RecordSet.class);
    for (RecordSet s : RecordSet.values()) {
      copy.put(s, Objects.requireNonNull(sets.get(s), "sets." + s.wireName()));
    }
    sets = Map.copyOf(copy);
    if (keySalt != null) {
      Text.requireHex64("key_salt", keySalt);
    }
  }

  /** The checkpoint schema version this state is written in: 2 with a key salt, 1 without. */
  public long schemaVersion() {
    return keySalt == null ? OLDEST_SCHEMA_VERSION : SCHEMA_VERSION;
  }

  public SetHead head(RecordSet set) {
    return sets.get(set);
  }

  public JsonObject toJson() {
    JsonObject.Builder setsJson = JsonObject.builder();
    for (RecordSet s : RecordSet.values()) {
      SetHead h = sets.get(s);
      if (s.optional() && h.count() == 0) {
        continue;
      }
      setsJson.put(
          s.wireName(), JsonObject.builder().put("count", h.count()).put("head", h.head()).build());
    }
    JsonObject.Builder out = JsonObject.builder();
    if (keySalt != null) {
      out.put("key_salt", keySalt);
    }
    return out.put("run_id", runId)
        .put("task_id", taskId)
        .put("task_version", taskVersion)
        .put("task_fingerprint", taskFingerprint)
        .put("policy_id", policyId)
        .put("policy_version", policyVersion)
        .put("phase", phase.wireName())
        .put("stop_reason", stopReason)
        .put("cursor", cursor)
        .put("usage", usage.toJson())
        .put("binding", binding.toJson())
        .put("verified", verified == null ? JsonNull.INSTANCE : verified.toJson())
        .put("pending", pending == null ? JsonNull.INSTANCE : pending.toJson())
        .put("review", review == null ? JsonNull.INSTANCE : review.toJson())
        .put("sets", setsJson.build())
        .build();
  }

  /**
   * Reads a payload of schema {@code version}: version 2 carries {@code key_salt}, version 1 does
   * not (one encoding per version).
   */
  public static RunState fromJson(JsonValue v, String path, long version) {
    List<String> names = new ArrayList<>(FIELDS);
    if (version >= SCHEMA_VERSION) {
      names.add("key_salt");
    }
    Fields f = Fields.exact(v, path, names.toArray(String[]::new));
    JsonObject named = Fields.asObject(f.raw("sets"), f.path("sets"));
    List<String> setNames = new ArrayList<>();
    for (RecordSet s : RecordSet.values()) {
      if (!s.optional() || named.has(s.wireName())) {
        setNames.add(s.wireName());
      }
    }
    Fields sf = Fields.exact(f.raw("sets"), f.path("sets"), setNames.toArray(String[]::new));
    EnumMap<RecordSet, SetHead> sets = new EnumMap<>(RecordSet.class);
    for (RecordSet s : RecordSet.values()) {
      if (!setNames.contains(s.wireName())) {
        sets.put(s, SetHead.EMPTY);
        continue;
      }
      Fields hf = Fields.exact(sf.raw(s.wireName()), sf.path(s.wireName()), "count", "head");
      // An optional set is named only once non-empty: one encoding per state.
      long min = s.optional() ? 1 : 0;
      sets.put(s, new SetHead(hf.integer("count", min, JsonInt.MAX_SAFE), hf.hex64("head")));
    }
    return new RunState(
        f.text("run_id"),
        f.text("task_id"),
        f.text("task_version"),
        f.hex64("task_fingerprint"),
        f.text("policy_id"),
        f.text("policy_version"),
        Phase.fromWireName(f.string("phase"), f.path("phase")),
        f.optionalText("stop_reason"),
        f.integer("cursor", 0, JsonInt.MAX_SAFE),
        Usage.fromJson(f.raw("usage"), f.path("usage")),
        Observation.fromJson(f.raw("binding"), f.path("binding")),
        f.isNull("verified")
            ? null
            : VerifiedEvidence.fromJson(f.raw("verified"), f.path("verified")),
        f.isNull("pending") ? null : PendingIntent.fromJson(f.raw("pending"), f.path("pending")),
        f.isNull("review") ? null : ReviewCase.fromJson(f.raw("review"), f.path("review")),
        sets,
        version >= SCHEMA_VERSION ? f.hex64("key_salt") : null);
  }

  private static final List<String> FIELDS =
      List.of(
          "run_id",
          "task_id",
          "task_version",
          "task_fingerprint",
          "policy_id",
          "policy_version",
          "phase",
          "stop_reason",
          "cursor",
          "usage",
          "binding",
          "verified",
          "pending",
          "review",
          "sets");
}
