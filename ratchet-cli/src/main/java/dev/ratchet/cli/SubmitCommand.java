package dev.ratchet.cli;

import dev.ratchet.error.RatchetException;
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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ratchet submit TASK.json... --operator-key FILE}: signs each task file, bound to a new run
 * id, with the operator's own Ed25519 key (D19) and stores it for workers through the operator role
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

  @Parameters(
      arity = "1..*",
      paramLabel = "TASK.json",
      description = "The task file(s): each becomes a new run, signed and stored in turn.")
  List<Path> taskFiles;

  @Option(
      names = "--run-id",
      paramLabel = "ID",
      description =
          "Id of the new run (default: run-<8 random hex digits>); repeated, one per task file,"
              + " in order.")
  List<String> runIds;

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
    if (runIds != null && runIds.size() != taskFiles.size()) {
      throw RatchetException.contract(
          "--run-id: given "
              + runIds.size()
              + " times for "
              + taskFiles.size()
              + " task files; give it once per task file, or not at all");
    }
    List<TaskFile> tfs = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < taskFiles.size(); i++) {
      tfs.add(TaskFile.load(taskFiles.get(i), services.adapters()));
      ids.add(
          TaskRegistry.requireRunId(
              runIds != null
                  ? runIds.get(i)
                  : "run-" + HexFormat.of().formatHex(services.entropy().bytes(4))));
    }
    if (new HashSet<>(ids).size() != ids.size()) {
      throw RatchetException.contract("--run-id: each run id may be given once");
    }
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
      // One JVM, one session and one key load for every file: each run is one signature and one
      // submit call (issue 38: the submissions a JVM per task cost are gone).
      for (int i = 0; i < tfs.size(); i++) {
        submit(session, tfs.get(i), ids.get(i), signer);
      }
      return 0;
    }
  }

  private void submit(Session session, TaskFile tf, String id, SigningKey signer) {
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
  }
}
