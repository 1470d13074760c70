package dev.ratchet.cli;

import dev.ratchet.cli.internal.Services;
import picocli.CommandLine.Command;

/** {@code ratchet demo}: crash, recover, nothing done twice (filled in with the real adapters). */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = "Run the crash-recovery demo on a fresh SQLite store in a temporary directory.")
final class DemoCommand extends CliCommand {
  DemoCommand(Services services) {
    super(services);
  }

  @Override
  public Integer call() {
    throw dev.ratchet.RatchetException.contract(
        "the demo needs the workspace adapter (not merged yet)");
  }
}
