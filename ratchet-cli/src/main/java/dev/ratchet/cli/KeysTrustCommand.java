package dev.ratchet.cli;

import dev.ratchet.cli.internal.KeyConfig;
import dev.ratchet.cli.internal.Services;
import dev.ratchet.cli.internal.Settings;
import dev.ratchet.error.RatchetException;
import dev.ratchet.sign.Pem;
import dev.ratchet.sign.Role;
import dev.ratchet.sign.TrustedKey;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ratchet keys trust --role approver|reviewer FILE.pub}: installs a person's Ed25519 public
 * key in this home's trust directory (SPEC D19). Workers hold public keys only.
 */
@Command(
    name = "trust",
    mixinStandardHelpOptions = true,
    description =
        "Install an approver's or reviewer's Ed25519 public key (X.509 PEM) in the trust directory"
            + " (<home>/approvers or <home>/reviewers) as <name>.pub. Prints its key id.")
final class KeysTrustCommand extends CliCommand {
  @Mixin CommonOptions common;

  @Option(
      names = "--role",
      required = true,
      paramLabel = "ROLE",
      description = "approver or reviewer.")
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
    Path dir;
    Role r;
    if (role.equals("approver")) {
      r = Role.APPROVER;
      dir = settings.approversDir();
    } else if (role.equals("reviewer")) {
      r = Role.REVIEWER;
      dir = settings.reviewersDir();
    } else {
      throw RatchetException.contract("--role: '" + role + "' is not one of approver, reviewer");
    }
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
    return 0;
  }
}
