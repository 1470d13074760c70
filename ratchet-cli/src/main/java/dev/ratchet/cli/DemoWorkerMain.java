package dev.ratchet.cli;

import dev.ratchet.cli.internal.Services;
import picocli.CommandLine;

/**
 * The entry point of the demo's worker JVMs ({@code java -cp … dev.ratchet.cli.DemoWorkerMain
 * --run-id …}): the demo's crash harness child, outside the {@code ratchet} command space.
 */
public final class DemoWorkerMain {
  private DemoWorkerMain() {}

  public static void main(String[] args) {
    Services services = Services.standard();
    CommandLine cl =
        Main.configured(new CommandLine(new WorkerCommand(services), new Main.Factory(services)));
    int code = Main.execute(cl, args, System.out, System.err);
    System.out.flush();
    System.err.flush();
    System.exit(code);
  }
}
