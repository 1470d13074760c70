package dev.ratchet.cli;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.ops.Decisions;
import dev.ratchet.ops.Driver;
import dev.ratchet.ops.LeaseWait;
import dev.ratchet.ops.ResumedRows;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Session;
import dev.ratchet.ops.TaskFile;
import dev.ratchet.outcome.Recovery;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.store.CheckpointStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ratchet resume RUN_ID}: recovers a run from the store and continues its plan. */
@Command(
    name = "resume",
    mixinStandardHelpOptions = true,
    description =
        "Recover a run from the store alone (fail closed on any integrity, freshness or binding"
            + " problem), reconcile its crash window, apply delivered decisions, and continue. Its"
            + " scheduling row is then left as a worker's claim would leave it (finished, parked"
            + " or runnable; a reason an earlier claim gave is cleared).")
final class ResumeCommand extends CliCommand {
  @Mixin RunOptions target;

  @Option(names = "--worker-id", paramLabel = "ID", description = "Lease owner name.")
  String workerId;

  @Option(
      names = "--wait",
      arity = "0..1",
      fallbackValue = "60s",
      paramLabel = "DURATION",
      description =
          "If another worker holds the run's lease, wait for it to lapse (at most DURATION: 90s,"
              + " 5m; default 60s) instead of failing FENCED at once.")
  String wait;

  ResumeCommand(Services services) {
    super(services);
  }

  @Override
  public Integer call() {
    try (Session session = target.open(services)) {
      CheckpointStore.RunRef ref = session.find(target.runId);
      TaskFile tf = session.taskFor(ref);
      Ratchet ratchet =
          session.ratchet(Workers.id(workerId), Session.DEFAULT_LEASE_TTL, CrashSeam.NONE);
      EnvironmentAdapter adapter = session.adapter(tf, false);
      // Verify before taking the lease: a refused run is left exactly as it was, lease included.
      ratchet.verify(tf.task(), target.runId, adapter);
      if (wait != null) {
        LeaseWait.await(
            session,
            target.runId,
            Decisions.duration("--wait", wait),
            services.clock(),
            out()::println);
      }
      try (Run run = ratchet.resume(tf.task(), target.runId, adapter)) {
        Recovery r = run.recovery();
        out()
            .println(
                "run "
                    + target.runId
                    + " recovered at generation "
                    + r.generation()
                    + ": found "
                    + r.found()
                    + ", did "
                    + r.did());
        Driver.Result result = new Driver(run, tf.plan(), out()::println).drive(r);
        // Issue 39: the row says what a worker's claim would have left, not an old refusal.
        String row = ResumedRows.settle(session, run, result.stop());
        if (row != null) {
          out().println(row);
        }
        return finish(result);
      }
    }
  }
}
