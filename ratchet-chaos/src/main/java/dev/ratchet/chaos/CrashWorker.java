package dev.ratchet.chaos;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapters.IdempotentHttpAdapter;
import dev.ratchet.adapters.WorkspaceAdapter;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.StoreOptions;
import dev.ratchet.model.Phase;
import dev.ratchet.model.RunState;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.testkit.KeyChangingAdapter;
import dev.ratchet.testkit.ResendingAdapter;
import dev.ratchet.testkit.SeededEntropy;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.LockSupport;

/**
 * A long-lived worker JVM of the crash campaign. It opens the batch's two SQLite stores ({@link
 * BatchStores}) and drives every run the supervisor sends on stdin, each on its own thread, to the
 * end: {@code RUN seed target arm} where {@code arm} is 1 when the trial's crash seam is armed for
 * this dispatch. The trial's {@link CrashPlan} comes from its seed.
 *
 * <p>It prints one line per event: {@code READY}, {@code STEP seed generation} after a step that
 * committed, {@code RETRY seed code}, {@code STALL seed ms}, {@code RECOVERED seed what}, {@code
 * SEAM seed point} when a run's thread parks in its armed crash window (the supervisor then
 * SIGKILLs the JVM), {@code END seed phase reason}, {@code ERROR seed code message} and {@code
 * GAVEUP seed}.
 *
 * <p>Args: {@code workerId batchDir canary(true|false)}.
 */
public final class CrashWorker {
  private static final Duration GIVE_UP = Duration.ofSeconds(75);

  /** The crash window armed on this thread (its run's plan) and how often it was reached. */
  private static final class Armed {
    final CrashPlan plan;
    int visits;

    Armed(CrashPlan plan) {
      this.plan = plan;
    }
  }

  private static final ThreadLocal<Armed> ARMED = new ThreadLocal<>();

  private CrashWorker() {}

  public static void main(String[] args) throws Exception {
    String worker = args[0];
    boolean canary = Boolean.parseBoolean(args[2]);
    InstantSource clock = Clock.systemUTC();
    CrashSeam seam = CrashWorker::reached;
    StoreOptions options = StoreOptions.defaults(clock).withCrashSeam(seam);
    ExecutorService pool = Executors.newCachedThreadPool();
    try (BatchStores stores = BatchStores.open(Path.of(args[1]), options)) {
      ChaosAgent.say("READY");
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      String line;
      while ((line = in.readLine()) != null) {
        String[] p = line.split(" ");
        if (!p[0].equals("RUN")) {
          continue;
        }
        CrashPlan plan = CrashPlan.of(Long.parseLong(p[1]), canary);
        boolean arm = p[3].equals("1");
        JdbcStore store = stores.of(plan);
        pool.execute(() -> trial(plan, p[2], arm, store, worker, clock, seam, canary));
      }
      pool.shutdown();
      pool.awaitTermination(2, java.util.concurrent.TimeUnit.MINUTES);
    }
  }

  /** The seam every component of this JVM calls; only an armed run's thread ever stops in it. */
  private static void reached(CrashPoint point) {
    Armed armed = ARMED.get();
    if (armed == null || point != armed.plan.point() || ++armed.visits != armed.plan.visit()) {
      return;
    }
    ChaosAgent.say("SEAM " + armed.plan.seed() + " " + point);
    while (true) {
      LockSupport.park(); // until the supervisor's SIGKILL
    }
  }

  private static void trial(
      CrashPlan plan,
      String target,
      boolean arm,
      JdbcStore store,
      String worker,
      InstantSource clock,
      CrashSeam seam,
      boolean canary) {
    long seed = plan.seed();
    long entropySeed = seed * 1_000_003L + worker.hashCode();
    try {
      if (arm) {
        ARMED.set(new Armed(plan));
      }
      Ratchet ratchet =
          ChaosTasks.ratchet(
              seed,
              store,
              store,
              clock,
              worker,
              Duration.ofMillis(plan.ttlMs()),
              seam,
              entropySeed);
      try (AdapterHandle a = adapter(plan.kind(), target, clock, seam, canary, entropySeed)) {
        runToEnd(ratchet, store, plan, a.adapter(), clock, new Random(entropySeed));
      }
    } catch (RuntimeException e) {
      ChaosAgent.say(
          "ERROR " + seed + " " + e.getClass().getSimpleName() + " " + oneLine(e.getMessage()));
    } finally {
      ARMED.remove();
    }
  }

  /** An adapter and what closes it (the workspace adapter holds a journal). */
  private record AdapterHandle(EnvironmentAdapter adapter, AutoCloseable closer)
      implements AutoCloseable {
    @Override
    public void close() {
      try {
        closer.close();
      } catch (Exception ignored) {
        // the run's outcome is already committed or abandoned
      }
    }
  }

  private static AdapterHandle adapter(
      ChaosTasks.Kind kind,
      String target,
      InstantSource clock,
      CrashSeam seam,
      boolean canary,
      long entropySeed) {
    EnvironmentAdapter a;
    AutoCloseable closer = () -> {};
    if (kind == ChaosTasks.Kind.LEDGER) {
      IdempotentHttpAdapter http = ChaosLedger.adapter(URI.create(target));
      http.crashSeam(seam);
      a = http;
    } else {
      WorkspaceAdapter ws =
          WorkspaceAdapter.builder(Path.of(target))
              .clock(clock)
              .entropy(new SeededEntropy(entropySeed))
              .crashSeam(seam)
              .open();
      a = ws;
      closer = ws;
    }
    if (canary) {
      // Ledger orders are not idempotent: resent under a fresh key they happen twice. Workspace
      // appends are conditional on the previous content, so there a changed key is the canary.
      a = kind == ChaosTasks.Kind.LEDGER ? new ResendingAdapter(a) : new KeyChangingAdapter(a);
    }
    return new AdapterHandle(a, closer);
  }

  /** Resumes or starts the run until it leaves RUNNING; retries fencing and lost races. */
  private static void runToEnd(
      Ratchet ratchet,
      JdbcStore store,
      CrashPlan plan,
      EnvironmentAdapter adapter,
      InstantSource clock,
      Random rnd) {
    TaskSpec task = ChaosTasks.task(plan.kind(), plan.approvals());
    ChaosApprover approver =
        plan.approvals()
            ? new ChaosApprover(ChaosTasks.approverKey(plan.seed()), task, store, clock, rnd)
            : null;
    String runId = runId(plan.seed());
    long seed = plan.seed();
    long deadline = System.nanoTime() + GIVE_UP.toNanos();
    while (System.nanoTime() < deadline) {
      boolean exists = store.load(task.taskId(), runId).isPresent();
      try (Run run =
          exists ? ratchet.resume(task, runId, adapter) : ratchet.start(task, runId, adapter)) {
        if (exists
            && run.recovery() != null
            && run.recovery().did() != dev.ratchet.outcome.Recovery.Did.NOTHING) {
          ChaosAgent.say("RECOVERED " + seed + " " + run.recovery().did());
        }
        drive(run, plan, approver, rnd);
        RunState s = run.state();
        if (s.phase() == Phase.RUNNING) {
          continue; // the drive gave up its turn after a stall; take the run again
        }
        String reason =
            s.stopReason() != null
                ? s.stopReason()
                : s.review() != null ? s.review().reason() : "-";
        ChaosAgent.say("END " + seed + " " + s.phase().wireName() + " " + reason);
        return;
      } catch (RatchetException e) {
        ChaosAgent.say("RETRY " + seed + " " + e.code());
        boolean lostStart = !exists && e.code() == ErrorCode.CONTRACT; // another worker started it
        if (!lostStart
            && e.code() != ErrorCode.FENCED
            && e.code() != ErrorCode.STORE_UNAVAILABLE
            && e.code() != ErrorCode.STALE_OBSERVATION) {
          ChaosAgent.say("ERROR " + seed + " " + e.code() + " " + oneLine(e.getMessage()));
          return;
        }
        LockSupport.parkNanos(Duration.ofMillis(5 + rnd.nextInt(45)).toNanos());
      }
    }
    ChaosAgent.say("GAVEUP " + seed);
  }

  /** Steps the run; on a short lease it sometimes stalls past the lease first. */
  private static void drive(Run run, CrashPlan plan, ChaosApprover approver, Random rnd) {
    int guard = 0;
    while (run.state().phase() == Phase.RUNNING && guard++ < 30) {
      if (plan.stallPermille() > rnd.nextInt(1000)) {
        long ms = plan.ttlMs() + rnd.nextInt((int) (2 * plan.ttlMs()));
        ChaosAgent.say("STALL " + plan.seed() + " " + ms);
        LockSupport.parkNanos(Duration.ofMillis(ms).toNanos());
      }
      long before = run.generation();
      boolean frozen = !ChaosAgent.step(run, plan.kind(), approver);
      if (run.generation() > before) {
        ChaosAgent.say("STEP " + plan.seed() + " " + run.generation());
      }
      if (frozen) {
        break;
      }
    }
  }

  static String runId(long seed) {
    return "trial-" + seed;
  }

  private static String oneLine(String s) {
    return s == null ? "" : s.replace('\n', ' ');
  }
}
