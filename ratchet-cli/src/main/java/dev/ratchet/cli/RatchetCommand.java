package dev.ratchet.cli;

import picocli.CommandLine.Command;

/** The top-level {@code ratchet} command: only subcommands. */
@Command(
    name = "ratchet",
    mixinStandardHelpOptions = true,
    version = "ratchet 0.1.0",
    description =
        "Runs long agent tasks that survive crashes without repeating a side effect. Exit codes:"
            + " 0 ok, 1 internal error, 2 bad usage or input, 3 refused (fail closed), 4 frozen"
            + " (needs review or approval), 5 store unavailable.",
    subcommands = {
      RunCommand.class,
      ResumeCommand.class,
      StatusCommand.class,
      InspectCommand.class,
      VerifyCommand.class,
      TraceCommand.class,
      ApproveCommand.class,
      RefreshApprovalCommand.class,
      RejectCommand.class,
      ReviewCommand.class,
      CancelCommand.class,
      PauseCommand.Pause.class,
      PauseCommand.Unpause.class,
      ForkCommand.class,
      MigrateCommand.class,
      SubmitCommand.class,
      WorkCommand.class,
      KeysCommand.class,
      DemoCommand.class,
      ServeLedgerCommand.class,
      ConsoleCommand.class,
      McpCommand.class,
      McpTokenCommand.class,
      DbCommand.class
    })
final class RatchetCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(), "a command is required (ratchet --help lists them)");
  }
}
