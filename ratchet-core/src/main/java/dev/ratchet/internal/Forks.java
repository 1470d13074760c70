package dev.ratchet.internal;

import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.error.DecisionRefused;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.Checkpoint;
import dev.ratchet.model.DecisionBinding;
import dev.ratchet.model.ForkDecision;
import dev.ratchet.model.Phase;
import dev.ratchet.model.RunState;
import dev.ratchet.model.SignedDecision;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.model.TraceOutcome;
import dev.ratchet.model.Usage;
import dev.ratchet.store.CheckpointEnvelope;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRun;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Applies an operator's signed fork (SPEC D37, ADR 0130): checks it, then makes the new run's first
 * commit — its starting state (the source's authenticated state at the signed step), the lineage,
 * and the source's receipts, consumed nonces and quarantined keys in the {@code inherited} set — in
 * one commit under the new run's first lease. Nothing is written to the source, and nothing is
 * written at all when any check refuses.
 */
public final class Forks {
  private static final String BOUND = "is not bound to this run";

  private Forks() {}

  /** The run states a fork may start from: terminal, paused or frozen (D37). */
  static boolean forkable(Phase p) {
    return ForkDecision.forkable(p);
  }

  /**
   * Forks {@code sourceRunId} (read with {@code source}: its task and keys) into the run the signed
   * decision names (created with {@code target}: the new task, the adapter, this worker).
   */
  public static Engine fork(
      RunContext source, String sourceRunId, RunContext target, SignedDecision signed) {
    if (!(signed.decision() instanceof ForkDecision d)) {
      throw RatchetException.contract("decision: is not a fork");
    }
    signed.verify(source.operators()); // untrusted, bad signature, wrong signer: refused first
    DecisionChecks.requireSame("fork", "run_id", d.runId(), sourceRunId, BOUND);
    StoredRun stored = Runs.loadStored(source, sourceRunId);
    Runs.Opened opened = Runs.decodeAndCheck(source, sourceRunId, stored);
    Checkpoint current = opened.checkpoint();
    source = opened.ctx(); // the task the source's checkpoint signs (a migration may have moved it)
    RunState s = current.state();
    DecisionChecks.requireBound(
        d.binding().runMismatch(DecisionBinding.ofRun(s, source.task())), "fork", BOUND);
    DecisionChecks.requireSame(
        "fork", "source_generation", d.sourceGeneration(), current.generation(), BOUND);
    DecisionChecks.requireSame(
        "fork", "source_task_digest", d.sourceTaskDigest(), source.task().fingerprint(), BOUND);
    DecisionChecks.requireSame(
        "fork", "new_task_id", d.newTaskId(), target.task().taskId(), "is not the new task's");
    DecisionChecks.requireSame(
        "fork",
        "new_task_digest",
        d.newTaskDigest(),
        target.task().fingerprint(),
        "is not the new task's");
    if (!forkable(s.phase())) {
      throw RatchetException.contract(
          "RUN: run "
              + sourceRunId
              + " is "
              + s.phase().wireName()
              + ": only a terminal (failed, cancelled, completed), paused or frozen"
              + " (needs_review) run can be forked");
    }
    RunState base = startingState(source, sourceRunId, d, current);
    Map<String, JsonObject> inherited = inheritance(source, target, s);
    Observation live = target.adapter().observe();
    if (!live.instanceId().equals(s.binding().instanceId())) {
      throw RatchetException.checkpoint(
          "environment instance '"
              + live.instanceId()
              + "' is not the source run's instance '"
              + s.binding().instanceId()
              + "': a fork stays in its source's environment");
    }
    if (!d.observed(live)) {
      throw new RatchetException(
          dev.ratchet.error.ErrorCode.STALE_OBSERVATION,
          "fork.environment_revision: the environment is at revision "
              + live.revision()
              + ", not the signed "
              + d.environmentRevision()
              + " (or its state changed): sign the fork again against today's environment");
    }
    return create(target, d, signed, base, live, inherited);
  }

  /**
   * The signed generation's state, authenticated, as the new run starts from it: at step {@code
   * from_step}, running, no pending write (a write pending there is proposed again by a driver that
   * replays the plan, under the same proposal number), no verifier evidence (verifications re-run).
   */
  private static RunState startingState(
      RunContext source, String runId, ForkDecision d, Checkpoint current) {
    Checkpoint at = current;
    if (d.fromGeneration() != current.generation()) {
      CheckpointEnvelope env =
          source
              .store()
              .retained(source.task().taskId(), runId, d.fromGeneration())
              .orElseThrow(
                  () ->
                      RatchetException.contract(
                          "--from-step: generation "
                              + d.fromGeneration()
                              + " of run "
                              + runId
                              + " is no longer retained by the store (it keeps the current"
                              + " checkpoint and a fixed number of older ones): fork from a"
                              + " later step"));
      at = Checkpoint.open(env, source.keys());
      if (at.generation() != d.fromGeneration()
          || !at.state().runId().equals(runId)
          || !at.state().taskId().equals(source.task().taskId())) {
        throw RatchetException.checkpoint(
            "retained generation " + d.fromGeneration() + " belongs to another run or generation");
      }
    }
    RunState b = at.state();
    if (b.cursor() != d.fromStep()) {
      throw new DecisionRefused(
          DecisionRefused.Reason.WRONG_BINDING,
          "fork.from_step "
              + d.fromStep()
              + " is not the plan step of generation "
              + d.fromGeneration()
              + " ("
              + b.cursor()
              + ")");
    }
    long proposals = b.usage().proposals() - (b.pending() == null ? 0 : 1);
    return new RunState(
        b.runId(),
        b.taskId(),
        b.taskVersion(),
        b.taskFingerprint(),
        b.policyId(),
        b.policyVersion(),
        Phase.RUNNING,
        null,
        b.cursor(),
        new Usage(proposals, b.usage().steps(), b.usage().cost(), b.usage().startedAtMs()),
        b.binding(),
        null,
        null,
        null,
        b.sets(),
        b.keySalt());
  }

  /**
   * The inherited set: every receipt of the source keyed by the action id it completed, with its
   * intent digest (from the source's authenticated trace), plus a pending write's receipt when the
   * service holds one; the source's consumed nonces and quarantined keys as evidence.
   */
  private static Map<String, JsonObject> inheritance(
      RunContext source, RunContext target, RunState s) {
    Map<String, String> actionOfKey = new HashMap<>();
    for (JsonObject body : RecordAuth.readAll(source.store(), source.keys(), s, RecordSet.TRACE)) {
      TraceEvent e = TraceEvent.fromJson(body, "source trace");
      if (e.outcome() == TraceOutcome.ACCEPTED_PENDING
          && e.detail().get("idempotency_key").orElse(null) instanceof JsonString k) {
        actionOfKey.put(k.value(), e.actionId());
      }
    }
    Map<String, JsonObject> out = new LinkedHashMap<>();
    for (JsonObject body :
        RecordAuth.readAll(source.store(), source.keys(), s, RecordSet.RECEIPTS)) {
      Receipt r = Receipt.fromJson(body, "source receipt");
      String action = actionOfKey.get(r.idempotencyKey());
      if (action != null) {
        out.put("receipt:" + action, receiptRecord(action, r, s.runId()));
      }
    }
    if (s.pending() != null) {
      if (s.pending().effectStarted()) {
        throw RatchetException.contract(
            "RUN: run "
                + s.runId()
                + "'s unreceipted write "
                + s.pending().action().actionId()
                + " started without a committed result: a reviewer decides it, a fork cannot");
      }
      // The one write whose receipt may be only at the service (a crash window): asked by the
      // source's own key, so a fork never sends what the source already did.
      Optional<Receipt> r = target.adapter().lookup(s.pending().key());
      if (r.isPresent()) {
        if (!r.get().intentDigest().equals(s.pending().intentDigest())) {
          throw RatchetException.checkpoint(
              "the service's receipt for the source's pending key is bound to another intent");
        }
        String action = s.pending().action().actionId();
        out.put("receipt:" + action, receiptRecord(action, r.get(), s.runId()));
      }
    }
    for (JsonObject n : RecordAuth.readAll(source.store(), source.keys(), s, RecordSet.NONCES)) {
      String nonce = ((JsonString) n.get("nonce").orElseThrow()).value();
      out.put("nonce:" + nonce, n);
    }
    for (JsonObject q :
        RecordAuth.readAll(source.store(), source.keys(), s, RecordSet.QUARANTINED_KEYS)) {
      out.put("quarantined:" + Integer.toString(out.size()), q);
    }
    return out;
  }

  private static JsonObject receiptRecord(String actionId, Receipt r, String sourceRunId) {
    return JsonObject.builder()
        .put("action_id", actionId)
        .put("intent_digest", r.intentDigest())
        .put("source_run_id", sourceRunId)
        .put("receipt", r.toJson())
        .build();
  }

  /** The new run's first commit: state, lineage, inherited set and the fork's nonce, or nothing. */
  private static Engine create(
      RunContext ctx,
      ForkDecision d,
      SignedDecision signed,
      RunState base,
      Observation live,
      Map<String, JsonObject> inherited) {
    String runId = d.newRunId();
    HeldLease lease = Runs.acquire(ctx, runId, true);
    if (lease.lease().version() != 1 && ctx.store().load(ctx.task().taskId(), runId).isPresent()) {
      ctx.leases().release(lease.lease());
      throw RatchetException.contract(
          "--run-id: run '" + runId + "' already exists (a fork creates its run once)");
    }
    EnumMap<RecordSet, SetHead> empty = new EnumMap<>(RecordSet.class);
    for (RecordSet set : RecordSet.values()) {
      empty.put(set, SetHead.EMPTY);
    }
    RunState initial =
        new RunState(
            runId,
            ctx.task().taskId(),
            ctx.task().taskVersion(),
            ctx.task().fingerprint(),
            ctx.task().policyId(),
            ctx.task().policyVersion(),
            Phase.RUNNING,
            null,
            base.cursor(),
            new Usage(
                base.usage().proposals(), base.usage().steps(), base.usage().cost(), ctx.nowMs()),
            live,
            null,
            null,
            null,
            empty,
            IdempotencyKeys.saltFor(ctx.keys(), ctx.task().taskId(), runId));
    Engine engine = new Engine(ctx, lease, 0, initial);
    try {
      Engine.Op op = engine.begin();
      for (Map.Entry<String, JsonObject> e : inherited.entrySet()) {
        op.j.append(RecordSet.INHERITED, e.getKey(), e.getValue());
      }
      engine.consumeNonce(op, d.nonce(), "fork", signed.fingerprint());
      op.trace(
          null,
          null,
          TraceOutcome.FORKED,
          JsonObject.builder()
              .put("binding", live.toJson())
              .put("source_task_id", d.taskId())
              .put("source_run_id", d.runId())
              .put("source_generation", d.sourceGeneration())
              .put("source_task_digest", d.sourceTaskDigest())
              .put("from_generation", d.fromGeneration())
              .put("from_step", d.fromStep())
              .put("task_digest", d.newTaskDigest())
              .put("operator_id", d.operatorId())
              .put("key_id", signed.keyId())
              .put("fork_reason", d.reason())
              .put("nonce", d.nonce())
              .put("envelope_fingerprint", signed.fingerprint())
              .put("inherited_receipts", countReceipts(inherited))
              .build());
      ctx.crash().reached(dev.ratchet.seam.CrashPoint.FORK_BEFORE_COMMIT);
      engine.commit(op);
      ctx.crash().reached(dev.ratchet.seam.CrashPoint.FORK_AFTER_COMMIT);
      return engine;
    } catch (RuntimeException e) {
      ctx.leases().release(lease.lease());
      throw e;
    }
  }

  private static long countReceipts(Map<String, JsonObject> inherited) {
    return inherited.keySet().stream().filter(k -> k.startsWith("receipt:")).count();
  }
}
