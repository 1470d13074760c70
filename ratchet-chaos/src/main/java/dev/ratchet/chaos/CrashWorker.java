package dev.ratchet.chaos;

import dev.ratchet.CrashPoint;
import dev.ratchet.CrashSeam;
import dev.ratchet.ErrorCode;
import dev.ratchet.Proposal;
import dev.ratchet.Ratchet;
import dev.ratchet.RatchetException;
import dev.ratchet.Run;
import dev.ratchet.StepOutcome;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapters.IdempotentHttpAdapter;
import dev.ratchet.adapters.LedgerApi;
import dev.ratchet.adapters.WorkspaceAdapter;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.StoreOptions;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Phase;
import dev.ratchet.model.RunState;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.store.Lease;
import dev.ratchet.testkit.KeyChangingAdapter;
import dev.ratchet.testkit.SeededEntropy;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

/**
 * A worker JVM of the crash campaign: drives each of its runs to the end on the shared SQLite
 * store, resuming runs that exist (after a kill, or when racing another worker for the same run).
 * It prints one line per event on stdout for the supervisor: {@code STEP run generation}, {@code
 * RETRY run code}, {@code END run phase reason}, {@code HALT point} just before a crash seam halts
 * the JVM, and {@code IDLE} when every run is done.
 *
 * <p>Args: {@code seed entropySeed workerId store(single:PATH|split:MARKS,CONTENT) clockOffsetMs
 * leaseTtlMs crash(none|POINT:N) canary(true|false) run=kind:target...}
 */
public final class CrashWorker {
  private static final PrintStream OUT = System.out;

  private CrashWorker() {}

  public static void main(String[] args) throws Exception {
    long seed = Long.parseLong(args[0]);
    long entropySeed = Long.parseLong(args[1]);
    String worker = args[2];
    String storeSpec = args[3];
    long offset = Long.parseLong(args[4]);
    Duration ttl = Duration.ofMillis(Long.parseLong(args[5]));
    CrashSeam seam = seam(args[6]);
    boolean canary = Boolean.parseBoolean(args[7]);
    InstantSource clock = InstantSource.offset(Clock.systemUTC(), Duration.ofMillis(offset));
    StoreOptions options =
        StoreOptions.defaults(clock).withOpenMode(OpenMode.MUST_EXIST).withCrashSeam(seam);
    Random rnd = new Random(entropySeed);
    List<String[]> runs = new ArrayList<>();
    for (int i = 8; i < args.length; i++) {
      String[] kv = args[i].split("=", 2);
      String[] kt = kv[1].split(":", 2);
      runs.add(new String[] {kv[0], kt[0], kt[1]});
    }
    Collections.shuffle(runs, rnd);
    try (JdbcStore store = CrashCampaign.openStore(storeSpec, options)) {
      Ratchet ratchet =
          ChaosTasks.ratchet(seed, store, store, clock, worker, ttl, seam, entropySeed);
      for (String[] r : runs) {
        ChaosTasks.Kind kind = ChaosTasks.Kind.valueOf(r[1]);
        EnvironmentAdapter adapter = adapter(kind, r[2], clock, seam, canary, entropySeed);
        try {
          runToEnd(ratchet, store, ChaosTasks.task(kind), kind, r[0], adapter, worker, ttl, rnd);
        } finally {
          if (adapter instanceof AutoCloseable c) {
            c.close();
          }
        }
      }
    }
    say("IDLE");
  }

  private static CrashSeam seam(String spec) {
    if (spec.equals("none")) {
      return CrashSeam.NONE;
    }
    String[] p = spec.split(":");
    CrashPoint armed = CrashPoint.valueOf(p[0]);
    int n = Integer.parseInt(p[1]);
    int[] reached = {0};
    return point -> {
      if (point == armed && ++reached[0] == n) {
        say("HALT " + point);
        Runtime.getRuntime().halt(137);
      }
    };
  }

  private static EnvironmentAdapter adapter(
      ChaosTasks.Kind kind,
      String target,
      InstantSource clock,
      CrashSeam seam,
      boolean canary,
      long entropySeed) {
    EnvironmentAdapter a;
    if (kind == ChaosTasks.Kind.LEDGER) {
      IdempotentHttpAdapter http = LedgerApi.adapter(URI.create(target));
      http.crashSeam(seam);
      a = http;
    } else {
      a =
          WorkspaceAdapter.builder(Path.of(target))
              .clock(clock)
              .entropy(new SeededEntropy(entropySeed))
              .crashSeam(seam)
              .open();
    }
    return canary ? new KeyChangingAdapter(a) : a;
  }

  /** Resumes or starts the run until it leaves RUNNING; retries fencing and lost races. */
  private static void runToEnd(
      Ratchet ratchet,
      JdbcStore store,
      TaskSpec task,
      ChaosTasks.Kind kind,
      String runId,
      EnvironmentAdapter adapter,
      String worker,
      Duration ttl,
      Random rnd) {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < deadline) {
      boolean exists = store.load(task.taskId(), runId).isPresent();
      try (Run run =
          exists ? ratchet.resume(task, runId, adapter) : ratchet.start(task, runId, adapter)) {
        drive(run, kind, runId);
        RunState s = run.state();
        String reason =
            s.stopReason() != null
                ? s.stopReason()
                : s.review() != null ? s.review().reason() : "-";
        say("END " + runId + " " + s.phase().wireName() + " " + reason);
        return;
      } catch (RatchetException e) {
        say("RETRY " + runId + " " + e.code());
        if (!exists && e.code() == ErrorCode.FENCED) {
          // A worker died between taking the lease of a new run and its first commit: start never
          // steals a lease, so clear an expired one (takeOver grants only expired leases).
          Optional<Lease> orphan = store.takeOver(runId, worker, ttl);
          orphan.ifPresent(store::release);
          orphan.ifPresent(l -> say("ORPHAN " + runId));
        }
        if (e.code() != ErrorCode.FENCED && e.code() != ErrorCode.STORE_UNAVAILABLE) {
          say("ERROR " + runId + " " + e.code() + " " + oneLine(e.getMessage()));
        }
        LockSupport.parkNanos(Duration.ofMillis(5 + rnd.nextInt(45)).toNanos());
      }
    }
    say("GAVEUP " + runId);
  }

  /** The deterministic agent: writes by the plan cursor, then verify, then finish. */
  private static void drive(Run run, ChaosTasks.Kind kind, String runId) {
    int guard = 0;
    while (run.state().phase() == Phase.RUNNING && guard++ < 30) {
      RunState s = run.state();
      if (s.pending() != null) {
        run.reconcile();
      } else {
        int cursor = (int) s.cursor();
        String id = "s" + cursor + "-" + s.usage().proposals();
        if (cursor < ChaosTasks.WRITES) {
          Map.Entry<String, JsonObject> w = ChaosTasks.write(kind, cursor);
          Proposal p = run.propose(run.action(id, w.getKey(), w.getValue()));
          if (p.kind() == Proposal.Kind.PENDING
              && run.execute(id).kind() == StepOutcome.Kind.FROZEN) {
            break;
          }
        } else if (cursor == ChaosTasks.WRITES) {
          Map.Entry<String, JsonObject> v = ChaosTasks.verification(kind);
          run.apply(run.action(id, v.getKey(), v.getValue()));
        } else {
          run.apply(run.action(id, "finish", JsonObject.EMPTY));
        }
      }
      say("STEP " + runId + " " + run.generation());
    }
  }

  private static String oneLine(String s) {
    return s == null ? "" : s.replace('\n', ' ');
  }

  static void say(String line) {
    synchronized (OUT) {
      OUT.println(line);
      OUT.flush();
    }
  }
}
