package dev.ratchet.chaos;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.model.Phase;
import dev.ratchet.model.RunState;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.testkit.KeyChangingAdapter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * A worker JVM of the contention campaign: many ledger runs on one PostgreSQL store, shared with
 * other workers. It loops: picks a run it has not seen finish (seeded), resumes it (or starts it),
 * takes a few steps, sometimes stalls past its lease before the next step (so another worker takes
 * the run over and this one is fenced), releases the run and picks another. Lines on stdout: {@code
 * STEP run generation}, {@code STALL run ms}, {@code RETRY run code}, {@code END run phase reason},
 * {@code ERROR run code message}, and {@code IDLE} once every run was seen finished (or {@code
 * DEADLINE}).
 *
 * <p>Args: {@code seed entropySeed workerId url schema leaseTtlMs stallPercent deadlineMs
 * maxStepsPerVisit canary runsFile}; the runs file holds one {@code runId uri} per line. {@code
 * canary} is {@code false}, {@code true} (keys changed per adapter, {@code KeyChangingAdapter}) or
 * {@code fresh} (a key minted per attempt, {@link FreshKeyCanary}: the failover campaign's).
 */
public final class ContentionWorker {
  private ContentionWorker() {}

  private static String workerId = "-";

  public static void main(String[] args) throws Exception {
    long seed = Long.parseLong(args[0]);
    long entropySeed = Long.parseLong(args[1]);
    String worker = args[2];
    workerId = worker;
    String url = args[3];
    String schema = args[4];
    Duration ttl = Duration.ofMillis(Long.parseLong(args[5]));
    int stallPercent = Integer.parseInt(args[6]);
    long deadline = System.nanoTime() + Duration.ofMillis(Long.parseLong(args[7])).toNanos();
    int maxSteps = Integer.parseInt(args[8]);
    String canary = args[9];
    Map<String, URI> runs = new LinkedHashMap<>();
    for (String line : Files.readAllLines(Path.of(args[10]))) {
      String[] p = line.split(" ", 2);
      runs.put(p[0], URI.create(p[1]));
    }
    Random rnd = new Random(entropySeed);
    TaskSpec task = ChaosTasks.task(ChaosTasks.Kind.LEDGER);
    // Fail fast while the server is down (the database-fault trial) and retry.
    try (JdbcStore store =
        JdbcStore.open(
            PgServer.as(url, schema, PgServer.WORKER, 3),
            PgServer.options().withBusyTimeout(Duration.ofSeconds(2)))) {
      Ratchet ratchet =
          ChaosTasks.ratchet(
              seed, store, store, Clock.systemUTC(), worker, ttl, CrashSeam.NONE, entropySeed);
      List<String> open = new ArrayList<>(runs.keySet());
      Set<String> done = new HashSet<>();
      while (!open.isEmpty()) {
        if (System.nanoTime() > deadline) {
          ChaosAgent.say("DEADLINE " + open.size());
          return;
        }
        String runId = open.get(rnd.nextInt(open.size()));
        EnvironmentAdapter adapter = ChaosLedger.adapter(runs.get(runId));
        if (canary.equals("true")) {
          adapter = new KeyChangingAdapter(adapter);
        } else if (canary.equals("fresh")) {
          adapter = new FreshKeyCanary(adapter);
        }
        if (visit(ratchet, store, task, runId, adapter, ttl, stallPercent, maxSteps, rnd)) {
          done.add(runId);
          open.remove(runId);
        }
      }
    }
    ChaosAgent.say("IDLE");
  }

  /**
   * The generation this worker's commit made (two claims of one would be two winners), with the
   * moment it returned (CLOCK_MONOTONIC, shared by every JVM of the machine), so the failover
   * campaign can tell which primary acknowledged it.
   */
  private static void sayStep(String runId, long generation) {
    ChaosAgent.say("STEP " + runId + " " + generation + " " + workerId + " " + System.nanoTime());
  }

  /** One visit to a run; true when the run is seen to have left RUNNING. */
  private static boolean visit(
      Ratchet ratchet,
      JdbcStore store,
      TaskSpec task,
      String runId,
      EnvironmentAdapter adapter,
      Duration ttl,
      int stallPercent,
      int maxSteps,
      Random rnd) {
    Run run = null;
    try {
      boolean exists = store.load(task.taskId(), runId).isPresent();
      run = exists ? ratchet.resume(task, runId, adapter) : ratchet.start(task, runId, adapter);
      if (run.recovery() != null
          && run.recovery().did() != dev.ratchet.outcome.Recovery.Did.NOTHING) {
        ChaosAgent.say("RECOVERED " + runId + " " + run.recovery().did());
        sayStep(runId, run.generation()); // recovery committed
      } else if (!exists) {
        sayStep(runId, run.generation()); // the start committed the first generation
      }
      int steps = maxSteps <= 0 ? 30 : 1 + rnd.nextInt(maxSteps);
      for (int i = 0; i < steps && run.state().phase() == Phase.RUNNING; i++) {
        if (rnd.nextInt(100) < stallPercent) {
          long ms = ttl.toMillis() + 1 + rnd.nextInt((int) ttl.toMillis() + 1);
          ChaosAgent.say("STALL " + runId + " " + ms);
          LockSupport.parkNanos(Duration.ofMillis(ms).toNanos());
        }
        long before = run.generation();
        boolean frozen = !ChaosAgent.step(run, ChaosTasks.Kind.LEDGER);
        if (run.generation() > before) {
          sayStep(runId, run.generation());
        }
        if (frozen) {
          break;
        }
      }
      RunState s = run.state();
      if (s.phase() != Phase.RUNNING) {
        String reason =
            s.stopReason() != null
                ? s.stopReason()
                : s.review() != null ? s.review().reason() : "-";
        ChaosAgent.say("END " + runId + " " + s.phase().wireName() + " " + reason);
        return true;
      }
      return false;
    } catch (RatchetException e) {
      ChaosAgent.say("RETRY " + runId + " " + e.code());
      if (e.code() != ErrorCode.FENCED
          && e.code() != ErrorCode.STORE_UNAVAILABLE
          && e.code() != ErrorCode.STALE_OBSERVATION) {
        ChaosAgent.say(
            "ERROR "
                + runId
                + " "
                + e.code()
                + " "
                + String.valueOf(e.getMessage()).replace('\n', ' '));
      }
      LockSupport.parkNanos(Duration.ofMillis(2 + rnd.nextInt(20)).toNanos());
      return false;
    } finally {
      if (run != null) {
        try {
          run.close();
        } catch (RatchetException e) {
          ChaosAgent.say("RETRY " + runId + " release-" + e.code());
        }
      }
    }
  }
}
