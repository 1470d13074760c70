package dev.ratchet.cli;

import dev.ratchet.ops.Services;
import dev.ratchet.ops.Session;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The options of a command about one stored run (inspect, trace, verify, resume, review show and
 * decide): the store options, {@code RUN_ID} and {@code --task}.
 */
final class RunOptions {
  @Mixin CommonOptions common;

  @Parameters(index = "0", paramLabel = "RUN_ID")
  String runId;

  @Option(names = "--task", paramLabel = "TASK.json", description = "Task file of the run.")
  Path task;

  /** Opens the existing store the run lives in. */
  Session open(Services services) {
    return common.openExisting(services, task);
  }
}
