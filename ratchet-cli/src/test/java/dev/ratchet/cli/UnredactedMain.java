package dev.ratchet.cli;

import dev.ratchet.ops.Services;
import dev.ratchet.sign.SecretRegistry;

/** The command line with redaction off: the key-leak test's canary only (test code). */
public final class UnredactedMain {
  private UnredactedMain() {}

  public static void main(String[] args) {
    int code =
        Main.execute(
            args,
            System.out,
            System.err,
            Services.standard().withSecrets(ring -> SecretRegistry.none()));
    System.out.flush();
    System.err.flush();
    System.exit(code);
  }
}
