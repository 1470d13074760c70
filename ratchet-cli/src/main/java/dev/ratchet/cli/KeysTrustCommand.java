package dev.ratchet.cli;

import dev.ratchet.ops.KeyConfig;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Session;
import dev.ratchet.ops.Settings;
import dev.ratchet.ops.StoreFactory;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.sign.Pem;
import dev.ratchet.sign.Role;
import dev.ratchet.sign.TrustedKey;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ratchet keys trust --role approver|reviewer|operator FILE.pub}: installs a person's
 * Ed25519 public key in this home's trust directory (SPEC D19). Workers hold public keys only.
 */
@Command(
    name = "trust",
    mixinStandardHelpOptions = true,
    description =
        "Install an approver's, reviewer's or operator's Ed25519 public key (X.509 PEM) in the"
            + " trust directory (<home>/approvers, <home>/reviewers or <home>/operators) as"
            + " <name>.pub. Prints its key id. Then wakes the store's waiting runs, so a worker"
            + " judges again a decision it refused because its signer was not yet trusted.")
final class KeysTrustCommand extends CliCommand {
  @Mixin CommonOptions common;

  @Option(
      names = "--role",
      required = true,
      paramLabel = "ROLE",
      description = "approver, reviewer or operator.")
  String role;

  @Option(
      names = "--name",
      paramLabel = "NAME",
      description = "The person's name (default: the file name without .pub).")
  String name;

  @Parameters(index = "0", paramLabel = "FILE.pub")
  Path file;

  KeysTrustCommand(Services services) {
    super(services);
  }

  @Override
  public Integer call() {
    Settings settings = common.settings(null);
    Role r = KeyConfig.role("--role", role);
    Path dir = settings.trustDir(r);
    String label =
        name != null
            ? KeyConfig.requireId("--name", name)
            : KeyConfig.nameOf(file, KeyConfig.PUBLIC_SUFFIX);
    TrustedKey key = Pem.readPublic(file, label);
    boolean written = KeyConfig.install(dir, key);
    out()
        .println(
            (written ? "trusted " : "already trusted: ")
                + r.noun()
                + " key "
                + key.keyId()
                + " ('"
                + label
                + "') in "
                + dir.resolve(label + KeyConfig.PUBLIC_SUFFIX));
    if (written) {
      wakeWaitingRuns(settings);
    }
    return 0;
  }

  /**
   * A decision refused because its signer was not yet trusted waits in its run's inbox; waking the
   * waiting runs lets a worker judge it again under the new trust root, with no resume (issue 39,
   * ADR 0053). The key is installed either way: a store this home cannot open or write to is
   * reported, and each running worker wakes the runs itself when it reloads its trust roots.
   */
  private void wakeWaitingRuns(Settings settings) {
    try (Session session =
        Session.open(services, settings, StoreFactory.Mode.MUST_EXIST, CrashSeam.NONE)) {
      java.util.Optional<dev.ratchet.schedule.SchedulingStore> s = session.schedulingIfAny();
      if (s.isPresent()) {
        int woken = s.get().wakeWaiting();
        out()
            .println(
                "woke " + woken + " waiting run(s): workers judge their refused decisions again");
      }
    } catch (dev.ratchet.error.RatchetException e) {
      err()
          .println(
              "note: waiting runs not woken here ("
                  + e.code()
                  + ": "
                  + e.getMessage()
                  + "); a running worker wakes them when it reloads its trust roots");
    }
  }
}
