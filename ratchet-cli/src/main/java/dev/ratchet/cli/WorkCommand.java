package dev.ratchet.cli;

import dev.ratchet.Ratchet;
import dev.ratchet.harness.HaltingSeam;
import dev.ratchet.harness.PausingSeam;
import dev.ratchet.ops.ClaimOpener;
import dev.ratchet.ops.Decisions;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Session;
import dev.ratchet.ops.StoreFactory;
import dev.ratchet.ops.WorkerMetrics;
import dev.ratchet.schedule.SchedulingStore;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.seam.Seams;
import dev.ratchet.worker.ClaimedLeases;
import dev.ratchet.worker.Worker;
import dev.ratchet.worker.WorkerOptions;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
      defaultValue = "1s",
      description = "Sleep between claims when nothing is claimable: 250ms, 1s (default 1s).")
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

  /** For crash tests: the process dies for real (SIGKILL awaited, else halt) at this point. */
  @Option(names = "--crash-at", paramLabel = "POINT", hidden = true)
  CrashPoint crashAt;

  /** For drain tests: the first step to reach this point is held there for a few seconds. */
  @Option(names = "--pause-at", paramLabel = "POINT", hidden = true)
  CrashPoint pauseAt;

  WorkCommand(Services services) {
    super(services);
  }

  @Override
  public Integer call() throws InterruptedException {
    Duration pollEvery = duration("--poll", poll);
    Duration ttl = duration("--lease-ttl", leaseTtl);
    String owner = Workers.id(workerId);
    WorkerOptions options = new WorkerOptions(owner, concurrency, pollEvery, ttl, once);
    CrashSeam seam = CrashSeam.NONE;
    if (crashAt != null) {
      HaltingSeam halting = new HaltingSeam(crashAt, out());
      halting.arm();
      seam = halting;
    } else if (pauseAt != null) {
      seam = new PausingSeam(pauseAt, out());
    }
    CountDownLatch finished = new CountDownLatch(1);
    try (WorkerMetrics metrics = WorkerMetrics.start(metricsBind, metricsPort, err());
        Session session =
            Session.open(
                services, common.settings(null), StoreFactory.Mode.MUST_EXIST, seam, concurrency)) {
      SchedulingStore store = session.scheduling("a worker");
      err()
          .println(
              "worker "
                  + owner
                  + ": "
                  + concurrency
                  + (concurrency == 1 ? " slot" : " slots")
                  + ", group commit "
                  + (session.groupCommit() ? "on" : "off"));
      ClaimedLeases leases = new ClaimedLeases(session.leases());
      CrashSeam runSeam = seam;
      java.util.function.Supplier<Ratchet> ratchets =
          () -> session.ratchet(owner, ttl, runSeam, session.keys(), leases, metrics.observer());
      Worker worker =
          new Worker(
              store,
              Seams.systemMonotonic(),
              new ClaimOpener(
                  session,
                  ratchets,
                  leases,
                  seam,
                  line -> err().println("worker " + owner + ": " + line)),
              Worker.discover(WorkCommand.class.getClassLoader()),
              options,
              line -> err().println(line));
      Runtime.getRuntime()
          .addShutdownHook(new Thread(() -> drain(worker, owner, finished, ttl.plus(pollEvery))));
      long claims = worker.run();
      err().println("worker " + owner + " stopped after " + claims + " claims");
      return 0;
    } finally {
      finished.countDown();
    }
  }

  /**
   * SIGTERM (a JVM shutdown while the loops still run): no new claim, the run in hand is driven to
   * its stop and its lease released, the store closed; then exit 0 (a shutdown hook cannot set the
   * exit code, so it halts). A worker that does not drain within the bound exits 1: its runs are
   * recovered like a killed worker's.
   */
  private void drain(Worker worker, String owner, CountDownLatch finished, Duration bound) {
    if (finished.getCount() == 0) {
      return; // the command ended by itself: its own exit code stands
    }
    err().println("worker " + owner + ": shutdown requested, draining");
    err().flush();
    worker.stop();
    boolean drained;
    try {
      drained = finished.await(bound.toMillis() + 5_000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      drained = false;
    }
    err().println("worker " + owner + (drained ? ": drained" : ": did not drain in time"));
    err().flush();
    Runtime.getRuntime().halt(drained ? 0 : 1);
  }

  /** A duration as the other commands take it, or milliseconds ({@code 250ms}) for polling. */
  private static Duration duration(String option, String text) {
    if (text.matches("[0-9]{1,6}ms")) {
      return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
    }
    return Decisions.duration(option, text);
  }
}
