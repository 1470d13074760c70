package dev.ratchet.cli;

import dev.ratchet.ops.Services;
import dev.ratchet.ops.WorkerProcess;
import dev.ratchet.seam.CrashSeam;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ratchet worker}: claims runnable runs from the store and drives each through its driver
 * (the task file's plan for runs submitted with {@code ratchet submit}), with no command typed per
 * run (SPEC D24, ADR 0060). One log line per claim, step and release on stderr.
 */
@Command(
    name = "worker",
    mixinStandardHelpOptions = true,
    description =
        "Claim runnable runs from the store (submitted, lease lapsed, an approval delivered) and"
            + " drive each through its driver; poll when idle.")
final class WorkCommand extends CliCommand {
  @Mixin CommonOptions common;

  @Option(
      names = "--concurrency",
      paramLabel = "N",
      defaultValue = "1",
      description = "Runs driven at once (default 1).")
  int concurrency;

  @Option(
      names = "--poll",
      paramLabel = "DURATION",
      description =
          "Sleep between claims when nothing is claimable: 250ms, 1s (default: worker.poll in"
              + " <home>/ratchet.properties, followed while the worker runs, else 1s).")
  String poll;

  @Option(names = "--once", description = "Stop once nothing is claimable.")
  boolean once;

  @Option(names = "--worker-id", paramLabel = "ID", description = "Lease owner name.")
  String workerId;

  @Option(
      names = "--lease-ttl",
      paramLabel = "DURATION",
      defaultValue = "30s",
      description = "Lease time-to-live of each claim (default 30s).")
  String leaseTtl;

  @Option(
      names = "--metrics-port",
      paramLabel = "PORT",
      description = "Serve Prometheus metrics on http://127.0.0.1:PORT/metrics (0: any free port).")
  Integer metricsPort;

  @Option(
      names = "--metrics-bind",
      paramLabel = "ADDRESS",
      defaultValue = "127.0.0.1",
      description = "Address of the metrics endpoint (default 127.0.0.1: loopback only).")
  String metricsBind;

  WorkCommand(Services services) {
    super(services);
  }

  @Override
  public Integer call() throws InterruptedException {
    return WorkerProcess.run(
        services,
        common.settings(null),
        new WorkerProcess.Options(
            Workers.id(workerId),
            concurrency,
            poll == null ? null : WorkerProcess.duration("--poll", poll),
            WorkerProcess.duration("--lease-ttl", leaseTtl),
            once,
            metricsBind,
            metricsPort),
        CrashSeam.NONE,
        err());
  }
}
