package dev.ratchet.cli;

import dev.ratchet.ops.Services;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ratchet demo browser}: a run orders and pays through a web page in headless Chromium and
 * survives a killed browser and a SIGKILLed worker (ratchet-agent-demo, a {@link
 * dev.ratchet.ops.DemoProgram} on the class path at run time only).
 */
@Command(
    name = "browser",
    mixinStandardHelpOptions = true,
    description =
        "Run one task that orders and pays through the reference ledger's web front end in headless"
            + " Chromium, on a fresh SQLite store in a temporary directory: Chromium is killed"
            + " mid-step while the order form is in flight, and the worker JVM is killed with"
            + " SIGKILL right after clicking Pay; a fresh worker resumes from the service's"
            + " receipt. Exit 0 only if the service counts one order and one payment and the run"
            + " completed verified.")
final class DemoBrowserCommand extends CliCommand {
  @Option(names = "--keep", description = "Keep the temporary directory (it is printed).")
  boolean keep;

  DemoBrowserCommand(Services services) {
    super(services);
  }

  @Override
  public Integer call() {
    return DemoCommand.run(services, "demo browser", "ratchet-demo-browser-", keep, out());
  }
}
