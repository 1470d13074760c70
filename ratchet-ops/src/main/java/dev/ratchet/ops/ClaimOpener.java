package dev.ratchet.ops;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.ops.internal.VerifiedTasks;
import dev.ratchet.schedule.Claim;
import dev.ratchet.schedule.SignedSubmission;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.worker.ClaimRefused;
import dev.ratchet.worker.ClaimedLeases;
import dev.ratchet.worker.DriveContext;
import dev.ratchet.worker.RunOpener;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * How {@code ratchet worker} opens a claimed run (ADR 0060, 0061). A submitted run's task comes
 * from the store's signed submission, verified against this home's operator trust root at every
 * claim; the first claim starts the run (its first commit) only after that check, under the claimed
 * lease. A refused submission is a {@link ClaimRefused}: the run is never started. Other runs
 * (scheduled through the Java API) use the task file recorded in this home.
 *
 * <p>Per claim only what the contract needs (issue 38): the signature and binding of a submission
 * are checked every time, but its task file is parsed once per content digest (the cache is emptied
 * when the trust roots change); a claim under the run's first lease starts the run without reading
 * the store (no commit is ever made without a lease, so none exists yet); a resumed run is not
 * audited first, since {@code resume} authenticates everything it reads and fails closed (SPEC D20;
 * the full audit stays in {@code verify}).
 */
public final class ClaimOpener implements RunOpener {
  private final Services services;
  private final Session session;
  private final java.util.function.Supplier<Ratchet> ratchets;
  private final java.util.function.Consumer<String> log;
  private Ratchet ratchet;
  private final ClaimedLeases leases;
  private final CrashSeam seam;
  private final Map<String, EnvironmentAdapter> adapters = new ConcurrentHashMap<>();
  private final VerifiedTasks parsed = new VerifiedTasks();

  /**
   * {@code ratchets} builds the runtime from the session's current trust roots; it is built again
   * when {@link Session#reloadTrust} finds them changed before a claim is opened, and {@code log}
   * says so.
   */
  public ClaimOpener(
      Session session,
      java.util.function.Supplier<Ratchet> ratchets,
      ClaimedLeases leases,
      CrashSeam seam,
      java.util.function.Consumer<String> log) {
    this.services = session.services();
    this.session = session;
    this.ratchets = ratchets;
    this.ratchet = ratchets.get();
    this.leases = leases;
    this.seam = seam;
    this.log = log;
  }

  /** The runtime for the next claim, rebuilt when the trust roots changed since the last one. */
  private synchronized Ratchet current() {
    judgementChanged();
    return ratchet;
  }

  /** Re-reads the trust roots (before each claim attempt): true, and logged, when they changed. */
  @Override
  public synchronized boolean judgementChanged() {
    String changed = session.reloadTrust();
    if (changed != null) {
      ratchet = ratchets.get();
      parsed.clear();
      log.accept("trust roots changed, reloaded: " + changed);
    }
    return changed != null;
  }

  @Override
  public DriveContext open(Claim claim, BooleanSupplier draining) {
    Ratchet ratchet = current();
    TaskFile tf = claim.submitted() ? submitted(claim) : recorded(claim);
    boolean fresh =
        claim.submitted()
            && (claim.firstLease()
                || session.store().load(claim.taskId(), claim.runId()).isEmpty());
    // A new run's environment is prepared once, by the worker that starts it.
    EnvironmentAdapter adapter =
        fresh
            ? Session.adapter(services, tf, true, seam)
            : adapters.computeIfAbsent(
                tf.sha256(), k -> Session.adapter(services, tf, false, seam));
    String ref = claim.taskRef();
    if (claim.submitted()) {
      // The plan driver and 'ratchet resume' in this home read the verified copy.
      TaskRegistry.record(session.home(), claim.runId(), tf);
      ref = session.home().tasks().resolve(tf.sha256() + ".json").toAbsolutePath().toString();
      VerifiedTasks.HANDED.put(ref, tf);
    }
    leases.hand(claim.lease());
    try {
      Run run =
          fresh
              ? ratchet.start(tf.task(), claim.runId(), adapter)
              : ratchet.resume(tf.task(), claim.runId(), adapter);
      TaskFile runs = underItsTask(run, tf);
      if (runs != tf) {
        // D37: migrated; the driver follows the task file the signed migration carried.
        TaskRegistry.record(session.home(), claim.runId(), runs);
        ref = session.home().tasks().resolve(runs.sha256() + ".json").toAbsolutePath().toString();
        VerifiedTasks.HANDED.put(ref, runs);
      }
      return new DriveContext(run, runs.task(), ref, draining);
    } finally {
      leases.forget(claim.runId());
    }
  }

  /**
   * The task file of the task the run runs under (D37): {@code tf} itself, or the task file of the
   * signed migration that moved the run (opaque to core, parsed and checked here as a submission
   * is), or, when the migration carried none, {@code tf}'s plan under the new task.
   */
  private TaskFile underItsTask(Run run, TaskFile tf) {
    if (run.task().equals(tf.task())) {
      return tf;
    }
    String runId = run.state().runId();
    TaskFile migrated = run.migratedTaskFile().map(json -> parse(json, runId)).orElse(null);
    if (migrated != null && migrated.task().equals(run.task())) {
      return migrated;
    }
    return new TaskFile(run.task(), tf.connect(), tf.plan(), tf.source());
  }

  @Override
  public void released(dev.ratchet.store.Lease lease) {
    leases.released(lease);
  }

  private TaskFile submitted(Claim claim) {
    // The claim carries the submission, exactly as submitted: no second read of the store.
    SignedSubmission envelope =
        claim
            .submission()
            .orElseThrow(
                () ->
                    new ClaimRefused(
                        RatchetException.contract(
                            "run "
                                + claim.runId()
                                + " was scheduled as submitted but has no"
                                + " submitted task")));
    try {
      return SubmittedTask.verify(
          envelope,
          claim.taskId(),
          claim.runId(),
          claim.driver(),
          session.operators(),
          taskFile -> parse(taskFile, claim.runId()));
    } catch (RatchetException e) {
      // Forged, untrusted, rebound or malformed: no worker may start it (DecisionRefused), or
      // the signature held but the task file does not parse.
      throw new ClaimRefused(e);
    }
  }

  /** The signed task file parsed, or its parse of an earlier claim with the same content. */
  private TaskFile parse(JsonObject taskFile, String runId) {
    byte[] bytes = Canonical.bytes(taskFile);
    String where = "submitted task " + runId;
    TaskFile tf =
        parsed.get(
            Canonical.sha256Hex(bytes),
            () -> TaskFile.parse(bytes, Path.of("").toAbsolutePath(), services.adapters(), where));
    return new TaskFile(tf.task(), tf.connect(), tf.plan(), where);
  }

  private TaskFile recorded(Claim claim) {
    return session.taskFor(new CheckpointStore.RunRef(claim.taskId(), claim.runId(), 0));
  }
}
