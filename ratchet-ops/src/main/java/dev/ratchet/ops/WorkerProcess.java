package dev.ratchet.ops;

import dev.ratchet.Ratchet;
import dev.ratchet.schedule.SchedulingStore;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.seam.Seams;
import dev.ratchet.worker.ClaimedLeases;
import dev.ratchet.worker.Worker;
import dev.ratchet.worker.WorkerOptions;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A worker process (SPEC D24, ADR 0060): claims runnable runs from the store and drives each
 * through its driver, one log line per claim, step and release on {@code err}. {@code ratchet
 * worker} runs it with no crash seam; the harness's crash entry points run it with one.
 */
public final class WorkerProcess {
  /**
   * How the worker runs.
   *
   * @param poll the idle poll interval ({@code --poll}), or null: {@code worker.poll} in the home's
   *     {@code ratchet.properties}, followed live (issue 39), else {@link #DEFAULT_POLL}
   * @param metricsPort serve Prometheus metrics on this port (0: any free one), or null: none
   */
  public record Options(
      String owner,
      int concurrency,
      Duration poll,
      Duration leaseTtl,
      boolean once,
      String metricsBind,
      Integer metricsPort) {}

  /** The idle poll interval when neither {@code --poll} nor {@code worker.poll} sets one. */
  public static final Duration DEFAULT_POLL = Duration.ofSeconds(1);

  private WorkerProcess() {}

  /**
   * Runs until nothing is claimable ({@code once}) or the JVM is told to stop (SIGTERM: drains,
   * then halts with 0, or 1 when the drain overran); returns 0 when it stopped by itself.
   */
  public static int run(
      Services services, Settings settings, Options o, CrashSeam seam, PrintWriter err)
      throws InterruptedException {
    // The file as it is now, kept: only worker.poll follows it while the worker runs (issue 39).
    Settings pinned = settings.pinned();
    boolean pollFromFile = o.poll() == null;
    Duration poll =
        pollFromFile ? pinned.configuration().workerPoll().orElse(DEFAULT_POLL) : o.poll();
    WorkerOptions options =
        new WorkerOptions(o.owner(), o.concurrency(), poll, o.leaseTtl(), o.once());
    CountDownLatch finished = new CountDownLatch(1);
    try (WorkerMetrics metrics = WorkerMetrics.start(o.metricsBind(), o.metricsPort(), err);
        Session session =
            Session.open(services, pinned, StoreFactory.Mode.MUST_EXIST, seam, o.concurrency())) {
      SchedulingStore store = session.scheduling("a worker");
      err.println(
          "worker "
              + o.owner()
              + ": "
              + o.concurrency()
              + (o.concurrency() == 1 ? " slot" : " slots")
              + ", group commit "
              + (session.groupCommit() ? "on" : "off"));
      ClaimedLeases leases = new ClaimedLeases(session.leases());
      Supplier<Ratchet> ratchets =
          () ->
              session.ratchet(
                  o.owner(), o.leaseTtl(), seam, session.keys(), leases, metrics.observer());
      LiveConfig config =
          new LiveConfig(
              pinned.configuration(),
              pollFromFile ? Set.of(Configuration.WORKER_POLL) : Set.of(),
              line -> err.println("worker " + o.owner() + ": " + line),
              services.clock());
      AtomicReference<Worker> running = new AtomicReference<>();
      ClaimOpener opener =
          new ClaimOpener(
              session,
              ratchets,
              leases,
              seam,
              line -> err.println("worker " + o.owner() + ": " + line));
      Worker worker =
          new Worker(
              store,
              Seams.systemMonotonic(),
              new ConfiguredOpener(
                  opener,
                  () -> {
                    Configuration now = config.check();
                    if (pollFromFile && running.get() != null) {
                      running.get().poll(now.workerPoll().orElse(DEFAULT_POLL));
                    }
                  }),
              Worker.discover(WorkerProcess.class.getClassLoader()),
              options,
              err::println,
              metrics.events());
      running.set(worker);
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> drain(worker, o.owner(), finished, o.leaseTtl().plus(worker.poll()), err)));
      long claims = worker.run();
      err.println("worker " + o.owner() + " stopped after " + claims + " claims");
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
  private static void drain(
      Worker worker, String owner, CountDownLatch finished, Duration bound, PrintWriter err) {
    if (finished.getCount() == 0) {
      return; // the worker ended by itself: its own exit code stands
    }
    err.println("worker " + owner + ": shutdown requested, draining");
    err.flush();
    worker.stop();
    boolean drained;
    try {
      drained = finished.await(bound.toMillis() + 5_000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      drained = false;
    }
    err.println("worker " + owner + (drained ? ": drained" : ": did not drain in time"));
    err.flush();
    Runtime.getRuntime().halt(drained ? 0 : 1);
  }

  /** A duration as the other commands take it, or milliseconds ({@code 250ms}) for polling. */
  public static Duration duration(String option, String text) {
    if (text.matches("[0-9]{1,6}ms")) {
      return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
    }
    return Decisions.duration(option, text);
  }
}
