package dev.ratchet.ops;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.Observation;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.Checkpoint;
import dev.ratchet.model.ForkDecision;
import dev.ratchet.model.RunState;
import dev.ratchet.model.SignedDecision;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.store.CheckpointEnvelope;
import dev.ratchet.store.CheckpointStore;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code ratchet fork} (SPEC D37, ADR 0130): resolves the step to fork from to a retained
 * checkpoint of the source, observes the environment, signs the fork with the operator's own key
 * (D19), and applies it through {@link Ratchet#fork}, which creates the new run in one commit. The
 * new run's task is recorded in the home before that commit and the run is scheduled for workers
 * after it; a fork refused anywhere writes nothing. A fork interrupted between its commit and its
 * scheduling is repaired by applying the same fork again ({@link ForkRepair}): the existing run is
 * scheduled, never created twice.
 */
public final class RunForks {
  private RunForks() {}

  /**
   * What a fork made: the new run, where it started and how many receipts it inherited; {@code
   * repaired} when the run already existed from an earlier fork of the same source that did not
   * schedule it, and this call only scheduled it ({@code inheritedReceipts} is then the earlier
   * fork's).
   */
  public record Forked(
      String runId,
      String taskId,
      long fromGeneration,
      long fromStep,
      long inheritedReceipts,
      boolean repaired) {}

  /**
   * A fork built and not yet signed: the decision (bound to a fresh observation of the
   * environment), the source's task file and the new run's. Signed by the CLI with the operator's
   * key file, or in the operator's browser by the console (D30).
   */
  public record Prepared(ForkDecision decision, TaskFile source, TaskFile task) {}

  /** {@code ratchet fork}: prepared, signed with {@code signer}'s key and applied. */
  public static Forked fork(
      Session session,
      String sourceRunId,
      Long fromStep,
      String newRunId,
      TaskFile newTask,
      SigningKey signer,
      String reason,
      String workerId) {
    Prepared p =
        prepare(
            session, sourceRunId, fromStep, newRunId, newTask, signer.label(), reason, workerId);
    return apply(session, p, Ratchet.sign(p.decision(), signer), workerId);
  }

  /**
   * Builds the fork {@code operatorId} signs: the source verified and forkable now, the step
   * resolved to a retained checkpoint, the environment observed now. Writes nothing.
   */
  public static Prepared prepare(
      Session session,
      String sourceRunId,
      Long fromStep,
      String newRunId,
      TaskFile newTask,
      String operatorId,
      String reason,
      String workerId) {
    // An existing new run id is refused here unless it is an earlier fork of this source that
    // was never scheduled; apply checks it in full against the signed fork.
    ForkRepair.requireNewOrUnscheduled(session, sourceRunId, newRunId, "--run-id");
    CheckpointStore.RunRef ref = session.find(sourceRunId);
    TaskFile source = session.taskFor(ref);
    TaskFile task = newTask != null ? newTask : source;
    EnvironmentAdapter adapter = session.adapter(task, false);
    Ratchet ratchet = session.ratchet(workerId, Session.DEFAULT_LEASE_TTL, CrashSeam.NONE);
    RunState s = ratchet.verify(source.task(), sourceRunId, adapter);
    if (!ForkDecision.forkable(s.phase())) {
      // Refused before anything is signed; Ratchet.fork checks it again when applied.
      throw RatchetException.contract(
          "RUN: run "
              + sourceRunId
              + " is "
              + s.phase().wireName()
              + ": only a terminal (failed, cancelled, completed), paused or frozen"
              + " (needs_review) run can be forked"
              + (s.phase() == dev.ratchet.model.Phase.RUNNING
                  ? " (pause it first: 'ratchet pause " + sourceRunId + "')"
                  : ""));
    }
    long generation = session.store().load(ref.taskId(), sourceRunId).orElseThrow().generation();
    long from = generation;
    long step = s.cursor();
    if (fromStep != null) {
      from = generationAt(session, ref, generation, fromStep);
      step = fromStep;
    }
    Observation live = adapter.observe();
    ForkDecision d =
        ForkDecision.of(
            operatorId,
            s,
            source.task(),
            generation,
            from,
            step,
            task.task(),
            newRunId,
            live,
            reason,
            Decisions.nonce("fork", session.services().entropy()));
    return new Prepared(d, source, task);
  }

  /**
   * Applies {@code signed}, which must carry exactly {@code p}'s decision: verified under the
   * operators' trust root before anything is written, the new run's task recorded, the new run
   * created by {@link Ratchet#fork} in one commit, then scheduled for workers. When the new run
   * already exists, it is only scheduled, and only if {@link ForkRepair} finds it is the run an
   * earlier application of this same fork (source, step, new run and task) committed and never
   * scheduled; anything else is refused as before.
   */
  public static Forked apply(Session session, Prepared p, SignedDecision signed, String workerId) {
    ForkDecision d = p.decision();
    if (!d.equals(signed.decision())) {
      throw RatchetException.contract("fork: the signed decision is not the one prepared");
    }
    signed.verify(session.operators()); // a refused signature leaves nothing behind, not even
    // the task record
    if (!session.store().runs(d.newRunId()).isEmpty()) {
      return ForkRepair.schedule(session, d, "--run-id");
    }
    TaskRegistry.requireRunId(d.newRunId());
    TaskFile task = p.task();
    EnvironmentAdapter adapter = session.adapter(task, false);
    Ratchet ratchet = session.ratchet(workerId, Session.DEFAULT_LEASE_TTL, CrashSeam.NONE);
    // Recorded first: a crash after the fork's commit leaves a run whose task 'resume' finds.
    TaskRegistry.record(session.home(), d.newRunId(), task);
    long inherited;
    try (Run run = ratchet.fork(p.source().task(), d.runId(), signed, task.task(), adapter)) {
      inherited =
          run.trace()
              .get(0)
              .detail()
              .get("inherited_receipts")
              .map(v -> Long.parseLong(v.toString()))
              .orElse(0L);
    }
    Path copy = session.home().tasks().resolve(task.sha256() + ".json").toAbsolutePath();
    session
        .schedulingIfAny()
        .ifPresent(
            sched ->
                sched.schedule(
                    task.task().taskId(),
                    d.newRunId(),
                    SubmittedTask.PLAN_DRIVER,
                    copy.toString()));
    return new Forked(
        d.newRunId(), task.task().taskId(), d.fromGeneration(), d.fromStep(), inherited, false);
  }

  /**
   * {@code newRunId} is free, or is the run of an earlier fork of {@code sourceRunId} that was
   * committed and never scheduled (a fork applied again schedules it, {@link ForkRepair});
   * otherwise {@code CONTRACT} naming {@code field} and the rule. Writes nothing.
   */
  public static void requireNewOrUnscheduled(
      Session session, String sourceRunId, String newRunId, String field) {
    ForkRepair.requireNewOrUnscheduled(session, sourceRunId, newRunId, field);
  }

  /**
   * The oldest retained generation of the source whose plan cursor is {@code step}: the state
   * before that step's write was proposed. Refused with the reason when the store keeps none.
   */
  private static long generationAt(
      Session session, CheckpointStore.RunRef ref, long current, long step) {
    for (long g = 1; g <= current; g++) {
      Optional<CheckpointEnvelope> env = session.store().retained(ref.taskId(), ref.runId(), g);
      if (env.isPresent() && Checkpoint.open(env.get(), session.keys()).state().cursor() == step) {
        return g;
      }
    }
    throw RatchetException.contract(
        "--from-step: the store no longer retains a checkpoint of run "
            + ref.runId()
            + " at step "
            + step
            + " (it keeps the current checkpoint and a fixed number of older ones; retention"
            + " is explicit): fork from a later step");
  }
}
