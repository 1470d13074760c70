package dev.ratchet.cli.internal;

import dev.ratchet.cli.Main;
import dev.ratchet.sign.SecretRegistry;

/** The command line with redaction off: the key-leak test's canary only (test code). */
public final class UnredactedMain {
  private UnredactedMain() {}

  public static void main(String[] args) {
    Session.secretsForTests = SecretRegistry.none();
    Main.main(args);
  }
}
