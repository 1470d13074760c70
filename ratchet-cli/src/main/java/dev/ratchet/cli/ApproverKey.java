package dev.ratchet.cli;

import dev.ratchet.ops.Home;
import dev.ratchet.ops.KeyConfig;
import dev.ratchet.sign.Role;
import dev.ratchet.sign.SigningKey;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The approver's key options of the commands that sign as an approver (approve, reject). */
final class ApproverKey {
  @Option(
      names = "--key",
      paramLabel = "FILE",
      description =
          "The approver's own Ed25519 private key (PKCS#8 PEM, mode 0600); default:"
              + " <home>/identities/approver/NAME.key for --approver NAME.")
  Path key;

  @Option(
      names = "--approver",
      paramLabel = "NAME",
      description = "The approver's name (a label; default with --key: the key file's name).")
  String approver;

  /** The approver's signing key, from {@code --key} or the home's identities. */
  SigningKey signer(Home home) {
    return KeyConfig.signer(key, approver, home, Role.APPROVER);
  }
}
