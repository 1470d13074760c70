package dev.ratchet.ops;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.error.RatchetException;
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
      log.accept("trust roots changed, reloaded: " + changed);
    }
    return changed != null;
  }

  @Override
  public DriveContext open(Claim claim, BooleanSupplier draining) {
    Ratchet ratchet = current();
    TaskFile tf = claim.submitted() ? submitted(claim) : recorded(claim);
    boolean fresh =
        claim.submitted() && session.store().load(claim.taskId(), claim.runId()).isEmpty();
    // A new run's environment is prepared once, by the worker that starts it.
    EnvironmentAdapter adapter =
        fresh
            ? Session.adapter(services, tf, true, seam)
            : adapters.computeIfAbsent(
                tf.sha256(), k -> Session.adapter(services, tf, false, seam));
    if (!fresh) {
      ratchet.verify(tf.task(), claim.runId(), adapter);
    }
    String ref = claim.taskRef();
    if (claim.submitted()) {
      // The plan driver and 'ratchet resume' in this home read the verified copy.
      TaskRegistry.record(session.home(), claim.runId(), tf);
      ref = session.home().tasks().resolve(tf.sha256() + ".json").toAbsolutePath().toString();
    }
    leases.hand(claim.lease());
    try {
      Run run =
          fresh
              ? ratchet.start(tf.task(), claim.runId(), adapter)
              : ratchet.resume(tf.task(), claim.runId(), adapter);
      return new DriveContext(run, tf.task(), ref, draining);
    } finally {
      leases.forget(claim.runId());
    }
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
          services.adapters(),
          Path.of("").toAbsolutePath());
    } catch (RatchetException e) {
      // Forged, untrusted, rebound or malformed: no worker may start it (DecisionRefused), or
      // the signature held but the task file does not parse.
      throw new ClaimRefused(e);
    }
  }

  private TaskFile recorded(Claim claim) {
    return session.taskFor(new CheckpointStore.RunRef(claim.taskId(), claim.runId(), 0));
  }
}
