package dev.ratchet.cli;

import dev.ratchet.Ratchet;
import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.MigrateDecision;
import dev.ratchet.model.RunState;
import dev.ratchet.model.TaskDiff;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.ops.Decisions;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Session;
import dev.ratchet.ops.TaskFile;
import dev.ratchet.sign.Role;
import dev.ratchet.sign.SigningKey;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ratchet migrate RUN_ID --task NEW.json} (SPEC D37, ADR 0130): prints the difference
 * between the task the run runs under and the new one (kinds, targets, permissions, approvals,
 * budgets), applies core's migration rule ({@link MigrateDecision#check}: the run waits, the new
 * task is whole-task valid, nothing widens without an approval-required path) and only then signs
 * the decision with the operator's own key (D19) and delivers it. The worker that next holds the
 * run applies it under its lease, checking all of it again.
 */
@Command(
    name = "migrate",
    mixinStandardHelpOptions = true,
    description =
        "Show how a new version of a run's task differs from the one it runs under, then sign a"
            + " migration to it with the operator's own key and deliver it. Only a waiting, paused"
            + " or frozen run is migrated, and never to a task that permits more without an"
            + " approval-required path; the next worker that holds the run applies it.")
final class MigrateCommand extends CliCommand {
  @Mixin CommonOptions common;

  @Mixin OperatorKeyOptions signing;

  @Parameters(index = "0", paramLabel = "RUN_ID")
  String runId;

  @Option(
      names = "--task",
      required = true,
      paramLabel = "NEW_TASK.json",
      description = "The new version of the run's task file.")
  Path newTask;

  @Option(
      names = "--from-task",
      paramLabel = "TASK.json",
      description =
          "The run's task file (default: the one recorded or submitted for it; a run migrated"
              + " since is compared with the task it runs under now).")
  Path fromTask;

  @Option(
      names = "--reason",
      paramLabel = "TEXT",
      defaultValue = "new task version",
      description = "Why; signed and traced (default: new task version).")
  String reason;

  MigrateCommand(Services services) {
    super(services);
  }

  @Override
  public Integer call() {
    SigningKey signer = signing.signer(common.settings(fromTask).resolvedHome());
    TaskFile to = TaskFile.load(newTask, services.adapters()); // D31: whole-task rules first
    try (Session session = common.openExisting(services, fromTask)) {
      Session.Checked checked = session.check(runId);
      RunState s = checked.state();
      TaskSpec from = checked.task().task();
      if (!from.fingerprint().equals(s.taskFingerprint())) {
        throw RatchetException.contract(
            "--from-task: run "
                + runId
                + " was migrated before and runs under task digest "
                + s.taskFingerprint()
                + ": pass the task file it runs under now");
      }
      Map<String, String> permissions = new HashMap<>();
      for (ActionSpec spec : checked.adapter().actionSpecs()) {
        permissions.put(spec.kind(), spec.permission());
      }
      TaskDiff diff = TaskDiff.of(from, to.task());
      out().println("migrate run " + runId + " (" + s.phase().wireName() + ")");
      out().println("  from task " + from.taskVersion() + " policy " + from.policyVersion());
      out().println("       digest " + from.fingerprint());
      out()
          .println(
              "  to   task " + to.task().taskVersion() + " policy " + to.task().policyVersion());
      out().println("       digest " + to.task().fingerprint());
      diff.lines().forEach(out()::println);
      if (diff.lines().isEmpty()) {
        out().println("  (no change to kinds, targets, permissions, approvals or budgets)");
      }
      out().flush();
      MigrateDecision.check(s, from, to.task(), permissions::get);
      ApprovalPreview.requireTrusted(
          err(),
          session.operators(),
          session.settings().trustDir(Role.OPERATOR),
          signer,
          signing.force,
          "migrate");
      MigrateDecision d =
          MigrateDecision.of(
              signer.label(),
              s,
              from,
              to.task(),
              to.toJson(),
              reason,
              Decisions.nonce("migrate", services.entropy()));
      Decisions.deliver(session.store(), Ratchet.sign(d, signer));
      out()
          .println(
              "migration of run "
                  + runId
                  + " by "
                  + signer.label()
                  + " (key "
                  + signer.keyId()
                  + ") delivered (nonce "
                  + d.nonce()
                  + "); applied under the lease, the run keeps its phase: "
                  + session.whoActsNext(checked.ref().taskId(), runId, "applies it"));
      return 0;
    }
  }
}
