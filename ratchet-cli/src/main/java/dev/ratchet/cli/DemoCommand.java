package dev.ratchet.cli;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.harness.demo.Demo;
import dev.ratchet.ops.Services;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ratchet demo}: crash in every window, recover, nothing done twice (see {@link Demo}). */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    subcommands = {DemoAgentCommand.class},
    description =
        "Run the demo task on a fresh SQLite store in a temporary directory: worker processes are"
            + " killed with SIGKILL once in every crash window and restarted, a receipt conflict is"
            + " frozen and resolved by a signed replan, and every intent's effects are counted in"
            + " the external ledger. Exit 0 only if every count is 1 and the run completed"
            + " verified.")
final class DemoCommand extends CliCommand {
  @Option(names = "--keep", description = "Keep the temporary directory (it is printed).")
  boolean keep;

  /** D18: with the key-changing canary the demo's checks must fail. */
  @Option(names = "--canary", hidden = true)
  boolean canary;

  DemoCommand(Services services) {
    super(services);
  }

  @Override
  public Integer call() {
    Path dir;
    try {
      dir = Files.createTempDirectory("ratchet-demo-");
    } catch (IOException e) {
      throw new RatchetException(
          ErrorCode.INTERNAL, "cannot create a temporary directory: " + e.getMessage());
    }
    int exit = Demo.run(services.clock(), services.entropy(), out(), dir, canary);
    if (exit == 0 && !keep) {
      delete(dir);
    } else if (exit == 0) {
      out().println("files kept in " + dir);
    }
    return exit;
  }

  private static void delete(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // A leftover temporary directory is harmless.
    }
  }
}
