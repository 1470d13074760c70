package dev.ratchet.cli;

import dev.ratchet.ops.Services;
import picocli.CommandLine.Command;

/** {@code ratchet approve RUN_ID --approver NAME|--key FILE}. */
@Command(
    name = "approve",
    mixinStandardHelpOptions = true,
    description =
        "Sign an approval bound to the run's pending write (action, idempotency key, intent digest,"
            + " environment) with a single-use nonce and deliver it to the run's inbox.")
final class ApproveCommand extends ApprovalCommand {
  ApproveCommand(Services services) {
    super(services);
  }

  @Override
  boolean refresh() {
    return false;
  }
}
