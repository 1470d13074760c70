package dev.ratchet.internal;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.error.DecisionRefused;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Fields;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.DecisionBinding;
import dev.ratchet.model.MigrateDecision;
import dev.ratchet.model.RunState;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.model.TaskDiff;
import dev.ratchet.model.TaskRules;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.model.TraceOutcome;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import java.util.List;
import java.util.Optional;

/**
 * Applies operators' signed task migrations under the lease (SPEC D37, ADR 0130), in delivery
 * order, each in its own commit traced {@code task_migrated} with both digests; the run then runs
 * under the new task (the engine's context changes with that commit). Every item is consumed once:
 * a refused one (untrusted, bad signature, wrong binding, malformed, a run that does not wait, a
 * signed digest or difference that is not the real one, or the widening rule) goes into the nonces
 * set and is traced once as {@code migration_rejected}; the run does not change.
 *
 * <p>The migrated task is kept in the run's own nonces set under {@code task:<digest>} (with the
 * digest it came from and the host's task file), authenticated like every record (D20), so a later
 * resume that supplies the task the run started with, or any task it was migrated from, runs under
 * the task its checkpoint signs: a host needs no special case.
 */
final class Migrations {
  private static final String BOUND = "is not bound to this run";
  private static final String TASK_KEY = "task:";

  private Migrations() {}

  /**
   * Applies or refuses the waiting migration items of a run that is not finished; true when one
   * applied. Whether the run waits is {@link MigrateDecision#check}'s to say, per item.
   */
  static boolean consume(Engine engine) {
    if (engine.state().phase().terminal()) {
      return false;
    }
    boolean applied = false;
    Engine.Op op = engine.begin();
    Refusals refusals = new Refusals();
    RunContext ctx = engine.ctx();
    for (InboxItem item : ctx.store().inbox(engine.state().taskId(), engine.state().runId())) {
      if (item.kind() != InboxItem.Kind.MIGRATE || engine.has(op, RecordSet.NONCES, item.nonce())) {
        continue;
      }
      try {
        SignedEnvelope env = SignedEnvelope.fromJson(Json.parse(item.envelope()), "migrate");
        MigrateDecision d = authenticate(engine, env, item);
        RunContext current = engine.ctx();
        RunState s = engine.state();
        TaskSpec from = current.task();
        DecisionChecks.requireSame(
            "migrate", "from_task_digest", d.fromTaskDigest(), s.taskFingerprint(), BOUND);
        RunContext next = allowed(current, s, d);
        engine.consumeNonce(op, d.nonce(), "migrate", env.fingerprint());
        traceRefusals(op, refusals);
        refusals = new Refusals();
        keep(engine, op, d);
        op.b.task = d.toTask();
        op.migratingTo = next;
        op.trace(
            null,
            null,
            TraceOutcome.TASK_MIGRATED,
            JsonObject.builder()
                .put("operator_id", d.operatorId())
                .put("key_id", env.keyId())
                .put("reason", d.reason())
                .put("nonce", d.nonce())
                .put("envelope_fingerprint", env.fingerprint())
                .put("from_task_digest", d.fromTaskDigest())
                .put("to_task_digest", d.toTaskDigest())
                .put("from_task_version", from.taskVersion())
                .put("to_task_version", d.toTask().taskVersion())
                .put("from_policy_version", from.policyVersion())
                .put("to_policy_version", d.toTask().policyVersion())
                .put("difference", d.difference())
                .put("phase", s.phase().wireName())
                .build());
        engine.commit(op);
        applied = true;
        op = engine.begin();
      } catch (RatchetException e) {
        if (DecisionChecks.fatal(e) || e.code() == ErrorCode.INTERNAL) {
          throw e; // a tampered record (D20), a lost lease or a bug: never a mere refusal
        }
        refusals.add(item, e);
        engine.consumeNonce(
            op, item.nonce(), "migrate_refused", Canonical.sha256Hex(item.envelope()));
      }
    }
    if (!refusals.isEmpty()) {
      traceRefusals(op, refusals);
      engine.commit(op);
    }
    return applied;
  }

  /**
   * The context a stored run of {@code state} runs under: {@code ctx} itself when the state signs
   * its task, else the task the run was migrated to, found by the signed digest in its nonces set,
   * provided {@code ctx}'s task is one it was migrated from. Empty when neither holds (the caller
   * refuses with {@code CHECKPOINT}).
   */
  static Optional<RunContext> resolve(RunContext ctx, RunState state) {
    String supplied = ctx.task().fingerprint();
    String digest = state.taskFingerprint();
    TaskSpec current = null;
    for (int hops = 0; !digest.equals(supplied); hops++) {
      if (hops > 1000) {
        return Optional.empty();
      }
      Optional<JsonObject> kept = kept(ctx, state, digest);
      if (kept.isEmpty()) {
        return Optional.empty();
      }
      if (current == null) {
        current = TaskSpec.fromJson(kept.get().get("to_task").orElseThrow(), "to_task");
        if (!current.fingerprint().equals(digest)) {
          throw RatchetException.checkpoint("a kept migrated task does not match its digest");
        }
      }
      digest =
          Fields.exact(
                  kept.get(), "nonces[task]", "kind", "from_task_digest", "to_task", "task_file")
              .hex64("from_task_digest");
    }
    if (current == null) {
      return Optional.of(ctx);
    }
    TaskRules.check(current, java.util.List.of(), List.copyOf(ctx.specs().values()));
    return Optional.of(ctx.withTask(current));
  }

  /** The host's task file the run's current task was migrated with, if any. */
  static Optional<JsonObject> taskFile(Engine engine) {
    return kept(engine.ctx(), engine.committed(), engine.committed().taskFingerprint())
        .flatMap(k -> k.get("task_file").filter(v -> v instanceof JsonObject))
        .map(v -> (JsonObject) v);
  }

  private static Optional<JsonObject> kept(RunContext ctx, RunState state, String digest) {
    Optional<StoredRecord> r =
        RecordAuth.authenticated(
            ctx.store(),
            ctx.keys(),
            state,
            RecordSet.NONCES,
            TASK_KEY + digest,
            ctx.store().find(state.taskId(), state.runId(), RecordSet.NONCES, TASK_KEY + digest));
    return r.map(RecordAuth::body);
  }

  /** Keeps the new task (once per digest) where a later resume finds it by the signed digest. */
  private static void keep(Engine engine, Engine.Op op, MigrateDecision d) {
    String key = TASK_KEY + d.toTaskDigest();
    if (engine.has(op, RecordSet.NONCES, key)) {
      return; // migrated back to a task it ran under before: the same content, by digest
    }
    op.j.append(
        RecordSet.NONCES,
        key,
        JsonObject.builder()
            .put("kind", "migrated_task")
            .put("from_task_digest", d.fromTaskDigest())
            .put("to_task", d.toTask().toJson())
            .put("task_file", d.taskFile() == null ? JsonNull.INSTANCE : d.taskFile())
            .build());
  }

  /**
   * The new task's context, once the run's rules allow the migration (the state, D31's whole-task
   * rules, the widening rule, the signed difference); refused as {@code not_allowed} otherwise.
   */
  private static RunContext allowed(RunContext current, RunState s, MigrateDecision d) {
    try {
      RunContext next = current.withTask(d.toTask());
      TaskRules.check(d.toTask(), java.util.List.of(), List.copyOf(current.specs().values()));
      TaskDiff diff =
          MigrateDecision.check(s, current.task(), d.toTask(), k -> permissionOf(current, k));
      if (!diff.toJson().equals(d.difference())) {
        throw RatchetException.contract(
            "migrate.difference: is not the difference between the two tasks");
      }
      return next;
    } catch (RatchetException e) {
      if (e.code() != ErrorCode.CONTRACT) {
        throw e;
      }
      throw new DecisionRefused(DecisionRefused.Reason.NOT_ALLOWED, e.getMessage());
    }
  }

  private static String permissionOf(RunContext ctx, String kind) {
    ActionSpec spec = ctx.specs().get(kind);
    return spec == null ? null : spec.permission();
  }

  private static MigrateDecision authenticate(Engine engine, SignedEnvelope env, InboxItem item) {
    RunContext ctx = engine.ctx();
    MigrateDecision d =
        DecisionChecks.authenticate(
            ctx, env, MigrateDecision.fromJson(env.payload(), "migrate.payload"));
    DecisionChecks.requireBound(
        d.binding().runMismatch(DecisionBinding.ofRun(engine.state(), ctx.task())),
        "migrate",
        BOUND);
    DecisionChecks.requireSame("migrate", "nonce", d.nonce(), item.nonce(), BOUND);
    return d;
  }

  private static void traceRefusals(Engine.Op op, Refusals refusals) {
    if (!refusals.isEmpty()) {
      op.trace(
          null,
          null,
          TraceOutcome.MIGRATION_REJECTED,
          JsonObject.builder()
              .put("error_code", ErrorCode.APPROVAL.name())
              .put(Refusals.FIELD, refusals.toJson())
              .build());
    }
  }
}
