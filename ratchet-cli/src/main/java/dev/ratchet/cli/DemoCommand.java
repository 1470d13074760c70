package dev.ratchet.cli;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.ops.DemoProgram;
import dev.ratchet.ops.Plugins;
import dev.ratchet.ops.Services;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ratchet demo}: crash in every window, recover, nothing done twice. The demo itself is a
 * {@link DemoProgram} of ratchet-harness, on the class path at run time only (ADR 0110).
 */
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

  DemoCommand(Services services) {
    super(services);
  }

  @Override
  public Integer call() {
    return run(services, "demo", "ratchet-demo-", keep, out());
  }

  /**
   * Runs demo {@code name} in a fresh temporary directory, deleted after a pass unless {@code
   * keep}; a failed demo's directory is kept for its evidence.
   */
  static int run(Services services, String name, String prefix, boolean keep, PrintWriter out) {
    DemoProgram demo =
        Plugins.find(
            DemoProgram.class,
            d -> d.name().equals(name),
            name
                + ": this build has no such demo (ratchet-harness and ratchet-agent-demo are not"
                + " on the class path)");
    Path dir;
    try {
      dir = Files.createTempDirectory(prefix);
    } catch (IOException e) {
      throw new RatchetException(
          ErrorCode.INTERNAL, "cannot create a temporary directory: " + e.getMessage());
    }
    int exit = demo.run(services, dir, out);
    if (exit == 0 && keep) {
      out.println("files kept in " + dir);
    } else if (exit == 0) {
      delete(dir);
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
