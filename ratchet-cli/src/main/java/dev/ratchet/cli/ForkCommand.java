package dev.ratchet.cli;

import dev.ratchet.ops.RunForks;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Session;
import dev.ratchet.ops.TaskFile;
import dev.ratchet.sign.Role;
import dev.ratchet.sign.SigningKey;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ratchet fork RUN [--from-step K] --run-id NEW [--task NEW_TASK.json]} (SPEC D37, ADR
 * 0130): signs a fork of a terminal, paused or frozen run with the operator's own key (D19) and
 * creates the new run from the source's state at step K, inheriting its receipts.
 */
@Command(
    name = "fork",
    mixinStandardHelpOptions = true,
    description =
        "Sign a fork of a failed, cancelled, completed, paused or frozen run with the operator's"
            + " own key and create a new run from the source's state at a step (default: its last"
            + " committed state). A write the new run proposes with the same action id and intent"
            + " as a receipted write of the source is replayed from that receipt, never sent"
            + " again; a worker drives the new run.")
final class ForkCommand extends CliCommand {
  @Mixin CommonOptions common;

  @Mixin OperatorKeyOptions signing;

  @Parameters(index = "0", paramLabel = "RUN", description = "The run to fork.")
  String source;

  @Option(
      names = "--from-step",
      paramLabel = "K",
      description =
          "The plan step to start from (0: before the first step); its checkpoint must still be"
              + " retained by the store. Default: the source's last committed state.")
  Long fromStep;

  @Option(
      names = "--run-id",
      required = true,
      paramLabel = "NEW",
      description = "Id of the new run.")
  String runId;

  @Option(
      names = "--task",
      paramLabel = "NEW_TASK.json",
      description = "The new run's task file (default: the source's).")
  Path task;

  @Option(
      names = "--reason",
      paramLabel = "TEXT",
      defaultValue = "operator request",
      description = "Why; signed and traced in the new run (default: operator request).")
  String reason;

  ForkCommand(Services services) {
    super(services);
  }

  @Override
  public Integer call() {
    if (fromStep != null && fromStep < 0) {
      throw dev.ratchet.error.RatchetException.contract("--from-step: must be >= 0");
    }
    TaskFile newTask = task == null ? null : TaskFile.load(task, services.adapters());
    SigningKey signer = signing.signer(common.settings(null).resolvedHome());
    try (Session session = common.openExisting(services, null)) {
      ApprovalPreview.requireTrusted(
          err(),
          session.operators(),
          session.settings().trustDir(Role.OPERATOR),
          signer,
          signing.force,
          "fork");
      RunForks.Forked f =
          RunForks.fork(
              session, source, fromStep, runId, newTask, signer, reason, Workers.id(null));
      if (f.repaired()) {
        // Issue 42: the earlier fork committed the run and stopped before scheduling it.
        out()
            .println(
                "fork: "
                    + f.runId()
                    + " already exists, forked from "
                    + source
                    + " by an earlier 'ratchet fork' that did not schedule it; scheduled it for"
                    + " workers");
        return 0;
      }
      out()
          .println(
              "run "
                  + f.runId()
                  + " forked from run "
                  + source
                  + " at step "
                  + f.fromStep()
                  + " (generation "
                  + f.fromGeneration()
                  + ") by "
                  + signer.label()
                  + " (key "
                  + signer.keyId()
                  + "); "
                  + f.inheritedReceipts()
                  + " receipts inherited: a write with the same action id and intent is replayed,"
                  + " never sent again; "
                  + session.whoActsNext(f.taskId(), f.runId(), "drives it"));
      return 0;
    }
  }
}
