package dev.ratchet.internal;

import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Checkpoint;
import dev.ratchet.model.Phase;
import dev.ratchet.model.RunState;
import dev.ratchet.model.TraceOutcome;
import dev.ratchet.model.Usage;
import dev.ratchet.outcome.Recovery;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.store.Lease;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRun;
import java.util.EnumMap;
import java.util.Optional;

/**
 * Starting and recovering runs. Recovery (SPEC §4, §9) is fail-closed and checks, in order: the
 * store answers; the envelope, key id, checksum, HMAC and schema; the task and policy fingerprints
 * against the supplied task; the generation equals the mark; the set counts and heads equal the
 * signed ones; the cross-state invariants; the environment instance; then it re-observes the
 * environment and reconciles the crash window of a pending write.
 */
public final class Runs {
  private Runs() {}

  public static Engine start(RunContext ctx, String runId) {
    // A worker that died after taking a new run's lease and before its first commit leaves an
    // expired lease and no checkpoint: taking it over is the only way the run can ever start.
    HeldLease lease = acquire(ctx, runId, true);
    // Under the run's first lease no commit can have been made (every commit needs a lease): no
    // read. Otherwise a started run is refused here with a clear message rather than by the CAS.
    if (lease.lease().version() != 1 && ctx.store().load(ctx.task().taskId(), runId).isPresent()) {
      ctx.leases().release(lease.lease());
      throw RatchetException.contract("run_id: run '" + runId + "' already exists: resume it");
    }
    Observation live = ctx.adapter().observe();
    EnumMap<RecordSet, SetHead> empty = new EnumMap<>(RecordSet.class);
    for (RecordSet s : RecordSet.values()) {
      empty.put(s, SetHead.EMPTY);
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
            0,
            new Usage(0, 0, 0, ctx.nowMs()),
            live,
            null,
            null,
            null,
            empty,
            IdempotencyKeys.saltFor(ctx.keys(), ctx.task().taskId(), runId));
    Engine engine = new Engine(ctx, lease, 0, initial);
    Engine.Op op = engine.begin();
    op.trace(
        null,
        null,
        TraceOutcome.STARTED,
        JsonObject.builder().put("binding", live.toJson()).build());
    engine.commit(op);
    return engine;
  }

  /** A resumed run's engine and what its recovery found and did. */
  public record Resumed(Engine engine, Recovery recovery) {}

  /** Loads, verifies and re-binds a run; then reconciles its pending write, if any. */
  public static Resumed resume(RunContext ctx, String runId) {
    HeldLease lease = acquire(ctx, runId, true);
    try {
      Engine engine = load(ctx, runId, lease);
      return new Resumed(engine, rebindAndReconcile(engine));
    } catch (RuntimeException e) {
      ctx.leases().release(lease.lease());
      throw e;
    }
  }

  /**
   * Re-signs the current checkpoint under the active key after verifying it (SPEC D15 rotation):
   * takes the lease, loads and checks the run exactly as recovery does, and commits one {@code
   * checkpoint_resigned} trace event — without observing, reconciling or executing anything, so a
   * pending write stays pending. Returns false, committing nothing, when the active key already
   * signs the checkpoint.
   */
  public static boolean resign(RunContext ctx, String runId) {
    HeldLease lease = acquire(ctx, runId, true);
    Engine engine = null;
    try {
      StoredRun stored = loadStored(ctx, runId);
      Opened o = decodeAndCheck(ctx, runId, stored);
      Checkpoint d = o.checkpoint();
      if (d.keyId().equals(ctx.keys().activeKeyId())) {
        return false;
      }
      engine = new Engine(o.ctx(), lease, d.generation(), d.state());
      Engine.Op op = engine.begin();
      op.trace(
          null,
          null,
          TraceOutcome.CHECKPOINT_RESIGNED,
          JsonObject.builder()
              .put("previous_key_id", d.keyId())
              .put("key_id", ctx.keys().activeKeyId())
              .build());
      engine.commit(op);
      return true;
    } finally {
      ctx.leases().release(engine == null ? lease.lease() : engine.lease());
    }
  }

  /** Verifies a stored run without a lease and without touching the environment. */
  public static RunState verify(RunContext ctx, String runId) {
    return decodeAndCheck(ctx, runId, loadStored(ctx, runId)).checkpoint().state();
  }

  /**
   * The task a stored run runs under (D37): the supplied one, or the task a signed migration moved
   * it to when the supplied one is a task it was migrated from; verified as {@link #verify}
   * verifies.
   */
  public static dev.ratchet.model.TaskSpec currentTask(RunContext ctx, String runId) {
    return decodeAndCheck(ctx, runId, loadStored(ctx, runId)).ctx().task();
  }

  private static Engine load(RunContext ctx, String runId, HeldLease lease) {
    StoredRun stored = loadStored(ctx, runId);
    Opened o = decodeAndCheck(ctx, runId, stored);
    return new Engine(o.ctx(), lease, o.checkpoint().generation(), o.checkpoint().state());
  }

  /**
   * A verified checkpoint and the context of the task it signs: the supplied one, or the task a
   * signed migration moved the run to (D37).
   */
  record Opened(Checkpoint checkpoint, RunContext ctx) {}

  static StoredRun loadStored(RunContext ctx, String runId) {
    return ctx.store()
        .load(ctx.task().taskId(), runId)
        .orElseThrow(
            () ->
                RatchetException.checkpoint(
                    "no checkpoint for run '" + runId + "' of task '" + ctx.task().taskId() + "'"));
  }

  static Opened decodeAndCheck(RunContext supplied, String runId, StoredRun stored) {
    Checkpoint d = Checkpoint.open(stored.envelope(), supplied.keys());
    RunState s = d.state();
    if (!s.runId().equals(runId) || !s.taskId().equals(supplied.task().taskId())) {
      throw RatchetException.checkpoint("checkpoint belongs to another run or task");
    }
    if (d.generation() != stored.generation()) {
      throw RatchetException.checkpoint(
          "stale checkpoint: generation "
              + d.generation()
              + " is not the high-water mark "
              + stored.generation());
    }
    if (!s.binding().instanceId().equals(stored.scope().environmentInstanceId())) {
      throw RatchetException.checkpoint("checkpoint's environment instance differs from the mark");
    }
    for (RecordSet set : RecordSet.values()) {
      if (!stored.head(set).equals(s.head(set))) {
        throw RatchetException.checkpoint(
            "the stored "
                + set.wireName()
                + " (count "
                + stored.head(set).count()
                + ") do not match the signed count and head ("
                + s.head(set).count()
                + ")");
      }
    }
    RecordAuth.verifyTips(supplied.store(), s);
    // D37: the run runs under the task its checkpoint signs; a task file changed since is refused,
    // a task the run was migrated from resolves to the one it was migrated to.
    RunContext ctx =
        Migrations.resolve(supplied, s)
            .orElseThrow(
                () ->
                    RatchetException.checkpoint(
                        "the task or its policy changed since the checkpoint (fingerprint"
                            + " differs)"));
    Invariants.check(ctx, ctx.task().fingerprint(), s);
    CompletionEvidence.check(ctx, s);
    return new Opened(d, ctx);
  }

  private static Recovery rebindAndReconcile(Engine engine) {
    RunContext ctx = engine.ctx();
    RunState s = engine.state();
    Observation live = engine.observe();
    if (!live.instanceId().equals(s.binding().instanceId())) {
      throw RatchetException.checkpoint(
          "environment instance '"
              + live.instanceId()
              + "' is not the run's instance '"
              + s.binding().instanceId()
              + "'");
    }
    if (s.phase() == Phase.PAUSED) {
      // D37: a signed cancel ends a paused run; only a signed unpause moves it on; a signed
      // migration applies while it is paused.
      StepOutcome cancelled = Cancels.consume(engine, live);
      if (cancelled != null) {
        return new Recovery(
            engine.generation(), Recovery.Found.PAUSED, Recovery.Did.CANCELLED, cancelled);
      }
      Migrations.consume(engine);
      Pauses.consume(engine);
      s = engine.state();
      if (s.phase() == Phase.PAUSED) {
        return new Recovery(engine.generation(), Recovery.Found.PAUSED, Recovery.Did.NOTHING, null);
      }
    }
    if (s.phase() == Phase.NEEDS_REVIEW) {
      Migrations.consume(engine); // D37: a frozen run may move to a new task; it stays frozen
    }
    if (s.phase() != Phase.RUNNING) {
      return new Recovery(
          engine.generation(),
          Recovery.Found.ofStoppedPhase(s.phase()),
          Recovery.Did.NOTHING,
          null);
    }
    boolean exact = live.equals(s.binding());
    if (s.pending() != null && s.pending().effectStarted()) {
      // D23: before anything else, a started unreceipted write is never run again.
      StepOutcome o = UncertainEffects.freeze(engine, live, "started, no committed result");
      return new Recovery(
          engine.generation(), Recovery.Found.EFFECT_STARTED, Recovery.Did.FROZEN, o);
    }
    // An operator's cancel comes before anything the run would do next (issue 17).
    StepOutcome cancelled = Cancels.consume(engine, live);
    if (cancelled != null) {
      Recovery.Found f =
          !exact
              ? Recovery.Found.DRIFT
              : s.pending() == null ? Recovery.Found.CLEAN : Recovery.Found.INTENT_WITHOUT_EFFECT;
      Recovery.Did d =
          cancelled.kind() == StepOutcome.Kind.FROZEN
              ? Recovery.Did.FROZEN
              : Recovery.Did.CANCELLED;
      return new Recovery(engine.generation(), f, d, cancelled);
    }
    s = engine.state(); // a commit of refused cancels leaves everything else as it was
    if (s.pending() == null) {
      // D37: a pause is taken at this step boundary; drift is judged when it is unpaused.
      JsonObject paused = Pauses.consume(engine);
      // A migration delivered to a running run is refused here (it does not wait), once.
      if (Migrations.consume(engine) && engine.state().phase() == Phase.PAUSED) {
        // Pause, migrate, unpause delivered together: in that order.
        JsonObject unpaused = Pauses.consume(engine);
        paused = unpaused == null ? paused : unpaused;
      }
      if (engine.state().phase() == Phase.PAUSED) {
        return new Recovery(
            engine.generation(),
            exact ? Recovery.Found.CLEAN : Recovery.Found.DRIFT,
            Recovery.Did.PAUSED,
            new StepOutcome.Done(StepOutcome.Kind.EXECUTED, null, paused, null));
      }
      if (exact) {
        return new Recovery(engine.generation(), Recovery.Found.CLEAN, Recovery.Did.NOTHING, null);
      }
      StepOutcome o = Freezer.drift(engine, live, "environment changed while the run was down");
      return new Recovery(engine.generation(), Recovery.Found.DRIFT, Recovery.Did.FROZEN, o);
    }
    if (Migrations.consume(engine)) {
      s = engine.state(); // D37: a write waiting for its approval now waits under the new task
    }
    String actionId = s.pending().action().actionId();
    Optional<Receipt> receipt = exact ? Optional.empty() : ctx.adapter().lookup(s.pending().key());
    Recovery.Found found =
        exact ? Recovery.Found.INTENT_WITHOUT_EFFECT : Recovery.Found.EFFECT_WITHOUT_RECEIPT;
    if (!exact && receipt.isEmpty()) {
      found = Recovery.Found.DRIFT;
    }
    PendingExecutor executor = new PendingExecutor(engine, true);
    StepOutcome o = executor.reconcile(actionId);
    engine.flush(); // recovery leaves what it reconciled durable (D22 folds only steady steps)
    if (o != null && engine.state().phase() == Phase.RUNNING && engine.state().pending() == null) {
      Pauses.consume(engine); // D37: the write in flight completed; a pause is taken right here
    }
    if (o == null && executor.rejectedWhy() != null) {
      return new Recovery(
          engine.generation(), found, Recovery.Did.REJECTED, null, executor.rejectedWhy());
    }
    if (o == null) {
      return new Recovery(
          engine.generation(), found, Recovery.Did.AWAITING_APPROVAL, null, executor.awaitingWhy());
    }
    Recovery.Did did;
    if (o.kind() == StepOutcome.Kind.RECONCILED) {
      did = Recovery.Did.RECONCILED;
    } else if (o.kind() == StepOutcome.Kind.FROZEN) {
      did = Recovery.Did.FROZEN;
    } else {
      did = Recovery.Did.EXECUTED_ONCE;
    }
    return new Recovery(engine.generation(), found, did, o);
  }

  /** Takes the lease, noting when the request was sent: its local validity counts from then. */
  static HeldLease acquire(RunContext ctx, String runId, boolean allowTakeOver) {
    long sent = ctx.monotonic().nanos();
    Optional<Lease> lease = ctx.leases().acquire(runId, ctx.workerId(), ctx.leaseTtl());
    if (lease.isEmpty() && allowTakeOver) {
      sent = ctx.monotonic().nanos();
      lease = ctx.leases().takeOver(runId, ctx.workerId(), ctx.leaseTtl());
    }
    long sentAt = sent;
    return lease
        .map(l -> new HeldLease(l, sentAt))
        .orElseThrow(
            () ->
                new RatchetException(
                    ErrorCode.FENCED,
                    "run '"
                        + runId
                        + "' is leased by another worker"
                        + ctx.leases().current(runId).map(l -> " (" + l.owner() + ")").orElse("")));
  }
}
