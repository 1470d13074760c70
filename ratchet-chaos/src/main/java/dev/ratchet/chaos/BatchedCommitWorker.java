package dev.ratchet.chaos;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.seam.CrashSeam;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A worker JVM that drives several ledger runs at once on one PostgreSQL store with group commit
 * on, so their commits meet in batched calls ({@code ratchet_commit_batch}, ADR 0141). With a crash
 * window named, the store's writer thread parks there on its {@code visit}-th visit and prints
 * {@code SEAM point}; the test then SIGKILLs this JVM. Lines: {@code READY}, {@code STEP run
 * generation}, {@code END run phase}, {@code ERROR run message}, {@code SEAM point}.
 *
 * <p>Args: {@code url schema seed crashAt(point|none) visit leaseTtlMs runsFile}; the runs file
 * holds one {@code runId uri} per line.
 */
public final class BatchedCommitWorker {
  private BatchedCommitWorker() {}

  public static void main(String[] args) throws Exception {
    String url = args[0];
    String schema = args[1];
    long seed = Long.parseLong(args[2]);
    String crashAt = args[3];
    int visit = Integer.parseInt(args[4]);
    Duration ttl = Duration.ofMillis(Long.parseLong(args[5]));
    List<String[]> runs = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of(args[6]))) {
      runs.add(line.split(" ", 2));
    }
    AtomicInteger visits = new AtomicInteger();
    CrashSeam seam =
        p -> {
          if (p.name().equals(crashAt) && visits.incrementAndGet() == visit) {
            ChaosAgent.say("SEAM " + p);
            while (true) {
              LockSupport.park(); // until the test's SIGKILL
            }
          }
        };
    try (JdbcStore store =
        JdbcStore.open(
            PgServer.as(url, schema, PgServer.WORKER, runs.size() + 2),
            PgServer.options().withGroupCommit(true).withCrashSeam(seam))) {
      if (store.schemaVersion() < 17) {
        throw new IllegalStateException("schema " + store.schemaVersion() + " has no batch call");
      }
      Ratchet ratchet =
          ChaosTasks.ratchet(
              seed,
              store,
              store,
              Clock.systemUTC(),
              "batch-" + ProcessHandle.current().pid(),
              ttl,
              seam,
              seed);
      ChaosAgent.say("READY");
      List<Thread> threads = new ArrayList<>();
      for (String[] r : runs) {
        Thread t = new Thread(() -> drive(ratchet, store, r[0], URI.create(r[1])), "run-" + r[0]);
        t.start();
        threads.add(t);
      }
      for (Thread t : threads) {
        t.join();
      }
    }
  }

  /** Drives one run to its end; a fenced or refused turn takes the run again. */
  private static void drive(Ratchet ratchet, JdbcStore store, String runId, URI ledger) {
    TaskSpec task = ChaosTasks.task(ChaosTasks.Kind.LEDGER);
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (System.nanoTime() < deadline) {
      boolean exists = store.load(task.taskId(), runId).isPresent();
      try (Run run =
          exists
              ? ratchet.resume(task, runId, ChaosLedger.adapter(ledger))
              : ratchet.start(task, runId, ChaosLedger.adapter(ledger))) {
        while (run.state().phase() == Phase.RUNNING) {
          long before = run.generation();
          boolean frozen = !ChaosAgent.step(run, ChaosTasks.Kind.LEDGER);
          if (run.generation() > before) {
            ChaosAgent.say("STEP " + runId + " " + run.generation());
          }
          if (frozen) {
            break;
          }
        }
        ChaosAgent.say("END " + runId + " " + run.state().phase().wireName());
        return;
      } catch (RatchetException e) {
        if (e.code() != ErrorCode.FENCED && e.code() != ErrorCode.STORE_UNAVAILABLE) {
          ChaosAgent.say("ERROR " + runId + " " + e.code() + " " + e.getMessage());
          return;
        }
        LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
      }
    }
    ChaosAgent.say("ERROR " + runId + " gave up");
  }
}
