package dev.ratchet.cli;

import dev.ratchet.agentdemo.AgentDemo;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.ops.Services;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ratchet demo agent}: a durable LangChain4j agent survives two SIGKILLs (AgentDemo). */
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
    Path dir;
    try {
      dir = Files.createTempDirectory("ratchet-demo-agent-");
    } catch (IOException e) {
      throw new RatchetException(
          ErrorCode.INTERNAL, "cannot create a temporary directory: " + e.getMessage());
    }
    int exit = AgentDemo.run(out(), dir);
    if (exit == 0 && keep) {
      out().println("files kept in " + dir);
    } else if (exit == 0) {
      try (Stream<Path> s = Files.walk(dir)) {
        s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException e) {
        // A leftover temporary directory is harmless.
      }
    }
    return exit;
  }
}
