package dev.ratchet.cli;

import dev.ratchet.ops.Services;
import picocli.CommandLine.Command;

/** {@code ratchet refresh-approval RUN_ID --approver NAME|--key FILE}. */
@Command(
    name = "refresh-approval",
    mixinStandardHelpOptions = true,
    description =
        "Replace the expired approval evidence of the run's pending write with a fresh approval"
            + " bound to the same action, key and intent; the old evidence is sealed into the"
            + " trace when the worker consumes the new one.")
final class RefreshApprovalCommand extends ApprovalCommand {
  RefreshApprovalCommand(Services services) {
    super(services);
  }

  @Override
  boolean refresh() {
    return true;
  }
}
