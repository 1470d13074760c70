package dev.ratchet.cli;

import dev.ratchet.ops.Services;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ratchet demo agent}: a durable LangChain4j agent survives two SIGKILLs
 * (ratchet-agent-demo, a {@link dev.ratchet.ops.DemoProgram} on the class path at run time only).
 */
@Command(
    name = "agent",
    mixinStandardHelpOptions = true,
    description =
        "Run two LangChain4j agents on a scripted chat model (offline) on a fresh SQLite store in"
            + " a temporary directory: one repairs a failing test in a workspace, one pays an"
            + " order that needs a signed approval at the reference ledger service. Their worker"
            + " JVMs are killed with SIGKILL after an intent commit and inside the adapter after"
            + " the payment; fresh workers resume. Exit 0 only if every write took effect once,"
            + " no decided step was asked of the model again and the tests pass.")
final class DemoAgentCommand extends CliCommand {
  @Option(names = "--keep", description = "Keep the temporary directory (it is printed).")
  boolean keep;

  DemoAgentCommand(Services services) {
    super(services);
  }

  @Override
  public Integer call() {
    return DemoCommand.run(services, "demo agent", "ratchet-demo-agent-", keep, out());
  }
}
