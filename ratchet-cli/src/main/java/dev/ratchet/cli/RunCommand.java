package dev.ratchet.cli;

import dev.ratchet.Run;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.error.RatchetException;
import dev.ratchet.ops.Driver;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Session;
import dev.ratchet.ops.Settings;
import dev.ratchet.ops.StoreFactory;
import dev.ratchet.ops.TaskFile;
import dev.ratchet.ops.TaskRegistry;
import dev.ratchet.seam.CrashSeam;
import java.nio.file.Path;
import java.util.HexFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ratchet run TASK.json}: starts a run of a task file and follows its plan here (one-shot
 * use); {@code ratchet submit} enqueues a signed task for workers instead.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = "Start a run of a task file and follow its plan until it ends or waits.")
final class RunCommand extends CliCommand {
  @Mixin CommonOptions common;

  @Parameters(index = "0", paramLabel = "TASK.json", description = "The task file.")
  Path taskFile;

  @Option(
      names = "--run-id",
      paramLabel = "ID",
      description = "Id of the new run (default: run-<8 random hex digits>).")
  String runId;

  @Option(names = "--worker-id", paramLabel = "ID", description = "Lease owner name.")
  String workerId;

  RunCommand(Services services) {
    super(services);
  }

  @Override
  public Integer call() {
    // Everything that can be refused is checked before the store is opened (and created).
    TaskFile tf = TaskFile.load(taskFile, services.adapters());
    String id =
        TaskRegistry.requireRunId(
            runId != null ? runId : "run-" + HexFormat.of().formatHex(services.entropy().bytes(4)));
    Settings settings = common.settings(null);
    Session.preflight(settings);
    // An existing run id is refused before the environment is prepared (nothing is created).
    Session.refuseExistingRun(services, settings, id);
    EnvironmentAdapter adapter = Session.adapter(services, tf, true, CrashSeam.NONE);
    try (Session session =
        Session.open(services, settings, StoreFactory.Mode.CREATE, CrashSeam.NONE)) {
      if (!session.store().runs(id).isEmpty()) {
        throw RatchetException.contract(
            "--run-id: run '" + id + "' already exists: 'ratchet resume " + id + "' continues it");
      }
      TaskRegistry.record(session.home(), id, tf);
      try (Run run =
          session
              .ratchet(Workers.id(workerId), Session.DEFAULT_LEASE_TTL, CrashSeam.NONE)
              .start(tf.task(), id, adapter)) {
        out()
            .println(
                "run "
                    + id
                    + " of task "
                    + tf.task().taskId()
                    + " started (generation "
                    + run.generation()
                    + ", environment "
                    + run.state().binding().instanceId()
                    + " at revision "
                    + run.state().binding().revision()
                    + ")");
        return finish(new Driver(run, tf.plan(), out()::println).drive());
      }
    }
  }
}
