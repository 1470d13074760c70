package dev.ratchet.bench;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.StoreOptions;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.schedule.Claim;
import dev.ratchet.schedule.SignedSubmission;
import dev.ratchet.seam.Entropy;
import dev.ratchet.seam.Seams;
import dev.ratchet.sign.Ed25519;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.SecretKey;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.sign.TrustRoot;
import dev.ratchet.worker.ClaimRefused;
import dev.ratchet.worker.ClaimedLeases;
import dev.ratchet.worker.DriveContext;
import dev.ratchet.worker.DriveResult;
import dev.ratchet.worker.RunOpener;
import dev.ratchet.worker.Worker;
import dev.ratchet.worker.WorkerOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Ratchet's side of figure 8: the library's worker path on PostgreSQL. An operator signs each task
 * (Ed25519, ADR 0061) and submits it through {@code SchedulingStore.submit} (one insert); a {@link
 * Worker} already running and listening (LISTEN/NOTIFY, 100 ms poll fallback) claims it as the
 * worker role, verifies the signature against its operator trust root (the task parsed once per
 * digest), starts the run under the claimed lease and drives {@link QueueSide#STEPS} write steps,
 * then finishes the row and releases the lease in one call. What {@code ratchet worker} adds on top
 * (a task file's plan, the home's copy) is not in this figure.
 */
final class WorkerPath implements QueueSide {
  private static final String DRIVER = "bench-steps";
  private final JdbcStore submitter;
  private final JdbcStore workerStore;
  private final BenchStore shape;
  private final SigningKey operator;
  private final TrustRoot operators;
  private final Ratchet ratchet;
  private final ClaimedLeases leases;
  private final Map<String, TaskSpec> parsed = new ConcurrentHashMap<>();
  private final Map<String, Long> submitted = new ConcurrentHashMap<>();
  private final Map<String, Long> ended = new ConcurrentHashMap<>();
  private final String database;
  private long runs;

  WorkerPath(Database owner, Database worker, String database) {
    this.database = database;
    Entropy entropy = Seams.secureEntropy();
    StoreOptions options =
        StoreOptions.defaults(Seams.systemClock()).withOpenMode(OpenMode.MUST_EXIST);
    this.submitter = JdbcStore.open(owner, options);
    this.workerStore = JdbcStore.open(worker, options);
    this.shape = BenchStore.inMemory(16);
    this.operator = SigningKey.of("bench-operator", Ed25519.generate(entropy));
    this.operators = TrustRoot.operators(List.of(operator.trusted()));
    this.leases = new ClaimedLeases(workerStore);
    this.ratchet =
        Ratchet.builder()
            .store(workerStore)
            .leases(leases)
            .checkpointKeys(
                KeyRing.of(SecretKey.of("bench-ckpt-1", entropy.bytes(32), ErrorCode.CHECKPOINT)))
            .approvers(
                TrustRoot.approvers(
                    List.of(SigningKey.of("approver", Ed25519.generate(entropy)).trusted())))
            .reviewers(
                TrustRoot.reviewers(
                    List.of(SigningKey.of("reviewer", Ed25519.generate(entropy)).trusted())))
            .operators(operators)
            .clock(Seams.systemClock())
            .entropy(entropy)
            .workerId(
                "bench-queue-worker") // the worker's owner too: the claimed lease is handed by
            // owner
            .leaseTtl(Duration.ofSeconds(30))
            .build();
  }

  @Override
  public String database() {
    return database;
  }

  @Override
  public double drain(int n, int concurrency, List<Long> latencies) throws Exception {
    Worker worker =
        new Worker(
            workerStore,
            Seams.systemMonotonic(),
            new Opener(),
            Map.of(DRIVER, new Steps()),
            new WorkerOptions(
                "bench-queue-worker",
                concurrency,
                Duration.ofMillis(100),
                Duration.ofSeconds(30),
                false),
            this::ended);
    Thread loop = new Thread(() -> runQuietly(worker), "bench-worker-loop");
    loop.start();
    try {
      Thread.sleep(200); // the loops are up and listening: an idle worker, as DBOS's queue is
      List<String> ids = new java.util.ArrayList<>();
      Stopwatch watch = Stopwatch.start();
      for (int i = 0; i < n; i++) {
        ids.add(submit());
      }
      for (String id : ids) {
        Long done;
        while ((done = ended.get(id)) == null) {
          Thread.sleep(1);
          if (watch.elapsedSeconds() > 600) {
            throw new IllegalStateException("run " + id + " did not end within 10 minutes");
          }
        }
        latencies.add(done - submitted.get(id));
      }
      return watch.elapsedSeconds();
    } finally {
      worker.stop();
      loop.join();
    }
  }

  /**
   * A run is done when the worker logs it ended: after its last commit and the finish of its row
   * with the release of its lease (one call).
   */
  private void ended(String line) {
    if (!line.contains("claimed run ")
        && !line.contains("released run ")
        && !line.endsWith(": ended (steps done)")
        && !line.contains("listening for")) {
      System.err.println("figure 8: " + line); // a failing path must not look like a slow one
    }
    int at = line.indexOf(" run ");
    if (line.endsWith(": ended (steps done)") && at >= 0) {
      ended.put(line.substring(at + 5, line.indexOf(':', at)), Stopwatch.nanos());
    }
  }

  /** Signs the task for a new run and submits it (one insert); returns the run id. */
  private String submit() {
    String runId = "wp-" + (runs++) + "-" + Long.toString(Stopwatch.nanos(), 36);
    TaskSpec task = shape.task;
    SignedSubmission signed =
        SignedSubmission.sign(
            task.taskId(), runId, DRIVER, task.toJson(), Long.toString(runs), operator);
    submitted.put(runId, Stopwatch.nanos());
    submitter.submit(task.taskId(), runId, DRIVER, signed);
    return runId;
  }

  private static void runQuietly(Worker worker) {
    try {
      worker.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Verifies the submission at every claim; parses its task once per digest. */
  private final class Opener implements RunOpener {
    @Override
    public DriveContext open(Claim claim, java.util.function.BooleanSupplier draining) {
      SignedSubmission s =
          claim.submission().orElseThrow(() -> new IllegalStateException("not submitted"));
      TaskSpec task;
      try {
        JsonObject file = s.verify(operators, claim.taskId(), claim.runId(), claim.driver());
        task =
            parsed.computeIfAbsent(
                Canonical.sha256Hex(file), k -> TaskSpec.fromJson(file, "submitted task"));
      } catch (dev.ratchet.error.RatchetException e) {
        throw new ClaimRefused(e);
      }
      leases.hand(claim.lease());
      try {
        Run run =
            claim.firstLease()
                ? ratchet.start(task, claim.runId(), shape.workspace(claim.runId()))
                : ratchet.resume(task, claim.runId(), shape.workspace(claim.runId()));
        return new DriveContext(run, task, claim.taskRef(), draining);
      } finally {
        leases.forget(claim.runId());
      }
    }

    @Override
    public void released(dev.ratchet.store.Lease lease) {
      leases.released(lease);
    }
  }

  /** {@link QueueSide#STEPS} write steps, then ended; the end time is recorded. */
  private final class Steps implements dev.ratchet.worker.Driver {
    @Override
    public String name() {
      return DRIVER;
    }

    @Override
    public DriveResult drive(DriveContext ctx) {
      Run run = ctx.run();
      for (int i = 0; i < STEPS; i++) {
        JsonObject args =
            JsonObject.builder().put("path", BenchStore.PATH).put("content", i + ":x").build();
        StepOutcome out = run.apply(run.action("s" + i, "write_file", args));
        if (out.kind() != StepOutcome.Kind.EXECUTED) {
          throw new IllegalStateException("step " + i + " of " + run.state().runId() + ": " + out);
        }
      }
      return DriveResult.ended("steps done");
    }
  }

  @Override
  public void close() {
    try {
      shape.close();
    } finally {
      try {
        workerStore.close();
      } finally {
        submitter.close();
      }
    }
  }
}
