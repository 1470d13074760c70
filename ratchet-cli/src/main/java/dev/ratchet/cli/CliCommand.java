package dev.ratchet.cli;

import dev.ratchet.ops.Services;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Base of the commands: the wiring and the command's output streams. */
abstract class CliCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  final Services services;

  CliCommand(Services services) {
    this.services = services;
  }

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  PrintWriter err() {
    return spec.commandLine().getErr();
  }

  /** Prints a driver's final line: stdout when it succeeded, stderr otherwise. */
  int finish(dev.ratchet.ops.Driver.Result r) {
    if (r.exitCode() == 0) {
      out().println(r.summary());
    } else {
      out().flush();
      err().println("stopped: " + r.summary());
    }
    return r.exitCode();
  }
}
