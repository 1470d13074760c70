package dev.ratchet.cli;

import dev.ratchet.ops.KeyConfig;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Session;
import dev.ratchet.ops.Settings;
import dev.ratchet.ops.StoreFactory;
import dev.ratchet.ops.SubmittedTask;
import dev.ratchet.ops.TaskFile;
import dev.ratchet.ops.TaskRegistry;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.sign.Role;
import dev.ratchet.sign.SigningKey;
import java.nio.file.Path;
import java.util.HexFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ratchet submit TASK.json --operator-key FILE}: signs the task file, bound to a new run id,
 * with the operator's own Ed25519 key (D19) and stores it for workers through the operator role
 * (D21, D24, ADR 0061). Nothing is started here: a {@code ratchet worker} claims the run, verifies
 * the signature against its operator trust root and only then makes the run's first commit.
 */
@Command(
    name = "submit",
    mixinStandardHelpOptions = true,
    description =
        "Sign a task file with the operator's own key and enqueue it as a new run for"
            + " 'ratchet worker', which verifies the signature before the run's first commit.")
final class SubmitCommand extends CliCommand {
  @Mixin CommonOptions common;

  @Parameters(index = "0", paramLabel = "TASK.json", description = "The task file.")
  Path taskFile;

  @Option(
      names = "--run-id",
      paramLabel = "ID",
      description = "Id of the new run (default: run-<8 random hex digits>).")
  String runId;

  @Option(
      names = {"--operator-key", "--key"},
      paramLabel = "FILE",
      description =
          "The operator's own Ed25519 private key (PKCS#8 PEM, mode 0600); default:"
              + " <home>/identities/operator/NAME.key for --operator NAME.")
  Path key;

  @Option(
      names = "--operator",
      paramLabel = "NAME",
      description = "The operator's name (a label; default with --operator-key: the file's name).")
  String operator;

  @Option(
      names = "--force",
      description =
          "Sign even if this home's operator trust root does not hold the key (for operators who"
              + " know the workers hold a different trust root).")
  boolean force;

  SubmitCommand(Services services) {
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
    SigningKey signer = KeyConfig.signer(key, operator, settings.resolvedHome(), Role.OPERATOR);
    Session.preflight(settings);
    try (Session session =
        Session.open(services, settings, StoreFactory.Mode.CREATE, CrashSeam.NONE)) {
      session.scheduling("submit"); // refused before anything is signed when there is none
      ApprovalPreview.requireTrusted(
          err(),
          session.operators(),
          settings.trustDir(Role.OPERATOR),
          signer,
          force,
          "submitted task");
      SubmittedTask.submit(session, tf, id, signer);
      out()
          .println(
              "run "
                  + id
                  + " of task "
                  + tf.task().taskId()
                  + " submitted by "
                  + signer.label()
                  + " (key "
                  + signer.keyId()
                  + ", driver "
                  + SubmittedTask.PLAN_DRIVER
                  + "): 'ratchet worker' starts it once it has verified the signature");
      return 0;
    }
  }
}
