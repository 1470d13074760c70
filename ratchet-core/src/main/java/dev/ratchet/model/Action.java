package dev.ratchet.model;

import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.json.Text;
import java.util.List;
import java.util.Objects;

/**
 * A step an agent proposes (SPEC §1). Writes carry no idempotency key when first proposed: the
 * runtime mints one (D4). A caller presents a key only to retry an intent the run already holds.
 *
 * @param environmentRevision the adapter revision the action was planned against
 * @param deadlineProposal the proposal count after which the action may no longer be accepted
 */
public record Action(
    String actionId,
    String kind,
    JsonObject arguments,
    String idempotencyKey,
    long environmentRevision,
    List<String> preconditions,
    String risk,
    long deadlineProposal) {

  public static final String REVISION_MATCHES = "environment_revision_matches";
  public static final long MAX_DEADLINE = 10_000_000;

  public Action {
    Text.require("action_id", actionId);
    Text.require("kind", kind);
    Objects.requireNonNull(arguments, "arguments");
    if (idempotencyKey != null) {
      Text.require("idempotency_key", idempotencyKey, dev.ratchet.adapter.Receipt.MAX_KEY_LENGTH);
    }
    preconditions = List.copyOf(preconditions);
    Text.require("risk", risk);
  }

  public boolean isControl() {
    return TaskSpec.CONTROL_KINDS.contains(kind);
  }

  public Action withIdempotencyKey(String key) {
    return new Action(
        actionId, kind, arguments, key, environmentRevision, preconditions, risk, deadlineProposal);
  }

  /** A copy with other arguments (the key, which binds the old arguments, is dropped). */
  public Action withArguments(JsonObject newArguments) {
    return new Action(
        actionId,
        kind,
        newArguments,
        null,
        environmentRevision,
        preconditions,
        risk,
        deadlineProposal);
  }

  /** A copy planned against another environment revision. */
  public Action withEnvironmentRevision(long revision) {
    return new Action(
        actionId, kind, arguments, idempotencyKey, revision, preconditions, risk, deadlineProposal);
  }

  /** A copy with another proposal deadline. */
  public Action withDeadlineProposal(long deadline) {
    return new Action(
        actionId,
        kind,
        arguments,
        idempotencyKey,
        environmentRevision,
        preconditions,
        risk,
        deadline);
  }

  /** A copy under another action id. */
  public Action withActionId(String id) {
    return new Action(
        id,
        kind,
        arguments,
        idempotencyKey,
        environmentRevision,
        preconditions,
        risk,
        deadlineProposal);
  }

  public JsonObject toJson() {
    return JsonObject.builder()
        .put("action_id", actionId)
        .put("kind", kind)
        .put("arguments", arguments)
        .put(
            "idempotency_key",
            idempotencyKey == null ? JsonNull.INSTANCE : new JsonString(idempotencyKey))
        .put("environment_revision", environmentRevision)
        .put(
            "preconditions",
            new JsonArray(preconditions.stream().<JsonValue>map(JsonString::new).toList()))
        .put("risk", risk)
        .put("deadline_proposal", deadlineProposal)
        .build();
  }

  /** Strict shape parse; kind-specific rules are checked by the runtime against the adapter. */
  public static Action fromJson(JsonValue v, String path) {
    Fields f =
        Fields.exact(
            v,
            path,
            "action_id",
            "kind",
            "arguments",
            "idempotency_key",
            "environment_revision",
            "preconditions",
            "risk",
            "deadline_proposal");
    return new Action(
        f.text("action_id"),
        f.text("kind"),
        f.obj("arguments"),
        f.isNull("idempotency_key")
            ? null
            : f.text("idempotency_key", dev.ratchet.adapter.Receipt.MAX_KEY_LENGTH),
        f.integer("environment_revision", 0, dev.ratchet.json.JsonInt.MAX_SAFE),
        f.uniqueTexts("preconditions", java.util.Set.of(REVISION_MATCHES), true),
        f.text("risk"),
        f.integer("deadline_proposal", 1, MAX_DEADLINE));
  }
}
