package dev.ratchet.model;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import java.util.Objects;
import java.util.Optional;

/**
 * What every signed human decision is bound to (SPEC D19, D30): the task, run and policy, and, for
 * a decision about a pending write, its action id, idempotency key and intent digest. One record
 * shared by approval, rejection, cancel and review decision, written into each payload under the
 * same field names as before (the signed bytes are unchanged); the intent fields are null for a
 * decision about the run alone (a cancel, a drift case without a pending write).
 */
public record DecisionBinding(
    String taskId,
    String runId,
    String policyId,
    String policyVersion,
    String actionId,
    String idempotencyKey,
    String intentDigest) {

  /** How a payload holds the intent fields when it is read. */
  public enum Intent {
    /** No intent fields: the decision is about the run (a cancel). */
    NONE,
    /** Action id and digest required; the key null for a write without one (an approval). */
    KEY_NULLABLE,
    /** All three required (a rejection). */
    REQUIRED,
    /** Each may be null (a reviewer decision on a case without a pending write). */
    OPTIONAL
  }

  public DecisionBinding {
    Objects.requireNonNull(taskId, "task_id");
    Objects.requireNonNull(runId, "run_id");
    Objects.requireNonNull(policyId, "policy_id");
    Objects.requireNonNull(policyVersion, "policy_version");
  }

  /** The run {@code s} of {@code task} alone. */
  public static DecisionBinding ofRun(RunState s, TaskSpec task) {
    return of(s, task, null);
  }

  /** The run {@code s} of {@code task} and the write {@code p} (null: the run alone). */
  public static DecisionBinding of(RunState s, TaskSpec task, PendingIntent p) {
    return new DecisionBinding(
        s.taskId(),
        s.runId(),
        task.policyId(),
        task.policyVersion(),
        p == null ? null : p.action().actionId(),
        p == null ? null : p.key(),
        p == null ? null : p.intentDigest());
  }

  /** {@code s}'s pending write; refused ({@code CONTRACT}) when none is pending to {@code verb}. */
  public static DecisionBinding ofPending(RunState s, TaskSpec task, String verb) {
    if (s.pending() == null) {
      throw RatchetException.contract("pending: the run has no pending write to " + verb);
    }
    return of(s, task, s.pending());
  }

  /** The run named by its ids alone. */
  public static DecisionBinding run(
      String taskId, String runId, String policyId, String policyVersion) {
    return new DecisionBinding(taskId, runId, policyId, policyVersion, null, null, null);
  }

  /** Writes the run fields ({@code task_id}, {@code run_id}, {@code policy_*}) into {@code b}. */
  void writeRun(JsonObject.Builder b) {
    b.put("task_id", taskId)
        .put("run_id", runId)
        .put("policy_id", policyId)
        .put("policy_version", policyVersion);
  }

  /** Writes {@code action_id}, {@code idempotency_key} and {@code digestKey}; null as null. */
  void writeIntent(JsonObject.Builder b, String digestKey) {
    b.put("action_id", opt(actionId))
        .put("idempotency_key", opt(idempotencyKey))
        .put(digestKey, opt(intentDigest));
  }

  /** Reads the binding from a payload's fields, the digest under {@code digestKey}. */
  static DecisionBinding read(Fields f, Intent intent, String digestKey) {
    String action = null;
    String key = null;
    String digest = null;
    switch (intent) {
      case KEY_NULLABLE:
        action = f.text("action_id");
        key = f.isNull("idempotency_key") ? null : f.text("idempotency_key", 200);
        digest = f.hex64(digestKey);
        break;
      case REQUIRED:
        action = f.text("action_id");
        key = f.text("idempotency_key", 200);
        digest = f.hex64(digestKey);
        break;
      case OPTIONAL:
        action = f.optionalText("action_id");
        key = f.optionalText("idempotency_key");
        digest = f.optionalHex64(digestKey);
        break;
      default:
        break;
    }
    return new DecisionBinding(
        f.text("task_id"),
        f.text("run_id"),
        f.text("policy_id"),
        f.text("policy_version"),
        action,
        key,
        digest);
  }

  /** The first run field ({@code task_id} … {@code policy_version}) that differs from want's. */
  public Optional<String> runMismatch(DecisionBinding want) {
    return first(
        "task_id",
        taskId,
        want.taskId,
        "run_id",
        runId,
        want.runId,
        "policy_id",
        policyId,
        want.policyId,
        "policy_version",
        policyVersion,
        want.policyVersion);
  }

  /** The first intent field that differs from want's, the digest named {@code digestKey}. */
  public Optional<String> intentMismatch(DecisionBinding want, String digestKey) {
    return first(
        "action_id",
        actionId,
        want.actionId,
        "idempotency_key",
        idempotencyKey,
        want.idempotencyKey,
        digestKey,
        intentDigest,
        want.intentDigest,
        null,
        null,
        null);
  }

  /** The first field, run fields then intent fields, that differs from want's. */
  public Optional<String> mismatch(DecisionBinding want, String digestKey) {
    Optional<String> run = runMismatch(want);
    return run.isPresent() ? run : intentMismatch(want, digestKey);
  }

  private static Optional<String> first(Object... triples) {
    for (int i = 0; i + 2 < triples.length; i += 3) {
      if (triples[i] != null && !Objects.equals(triples[i + 1], triples[i + 2])) {
        return Optional.of((String) triples[i]);
      }
    }
    return Optional.empty();
  }

  private static JsonValue opt(String s) {
    return s == null ? JsonNull.INSTANCE : new JsonString(s);
  }
}
