package dev.ratchet.cli;

import dev.ratchet.ops.Home;
import dev.ratchet.ops.KeyConfig;
import dev.ratchet.sign.Role;
import dev.ratchet.sign.SigningKey;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The options of a command an operator signs with their own Ed25519 key (D19): cancel, pause,
 * unpause, migrate and fork. The key is read here, in the operator's process, and never leaves it.
 */
final class OperatorKeyOptions {
  @Option(
      names = {"--key", "--operator-key"},
      paramLabel = "FILE",
      description =
          "The operator's Ed25519 private key file (PKCS#8 PEM, mode 0600); without it,"
              + " <home>/identities/operator/NAME.key for --operator NAME.")
  Path key;

  @Option(
      names = "--operator",
      paramLabel = "NAME",
      description = "The operator's name (with --key, the key file's name by default).")
  String operator;

  @Option(
      names = "--force",
      description =
          "Sign even when this home's operator trust root does not hold the key (for operators"
              + " who know the worker holds a different trust root).")
  boolean force;

  /** The operator's signing key, from {@code --key} or {@code home}'s identities. */
  SigningKey signer(Home home) {
    return KeyConfig.signer(key, operator, home, Role.OPERATOR);
  }
}
