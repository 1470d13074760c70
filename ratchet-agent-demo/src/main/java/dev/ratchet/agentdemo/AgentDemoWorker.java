package dev.ratchet.agentdemo;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapters.IdempotentHttpAdapter;
import dev.ratchet.adapters.LedgerApi;
import dev.ratchet.adapters.WorkspaceAdapter;
import dev.ratchet.agentdemo.AgentDemoSetup.Part;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.json.JsonString;
import dev.ratchet.langchain4j.DurableAgent;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.model.TraceEvent;
import dev.ratchet.outcome.Recovery;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.worker.DriveResult;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * One worker JVM of {@code ratchet demo agent}: {@code AgentDemoWorker <dir> <ledger-uri> <REPAIR
 * or PAY> <crash point or none> <worker number> <start or resume>}. It drives its agent until the
 * run ends or waits for an approval. At the armed crash point it prints {@code CRASH <point>} and
 * waits for the parent's SIGKILL (halting itself if none comes). Worker n's clock runs n lease
 * lifetimes ahead, so it never waits for a dead worker's lease to expire.
 */
public final class AgentDemoWorker {
  static final String CRASH = "CRASH ";
  static final String RECOVERY = "RECOVERY ";
  static final String ENDED = "ENDED ";
  static final String WAITING = "WAITING ";
  static final String EVENT = "EVENT ";
  private static final long WAIT_FOR_KILL_MS = 20_000;

  private AgentDemoWorker() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    URI ledger = URI.create(args[1]);
    Part part = Part.valueOf(args[2]);
    CrashSeam seam = args[3].equals("none") ? CrashSeam.NONE : halting(CrashPoint.valueOf(args[3]));
    int worker = Integer.parseInt(args[4]);
    boolean start = args[5].equals("start");
    Duration ahead = AgentDemoSetup.LEASE_TTL.plusSeconds(1).multipliedBy(worker);
    Clock clock = Clock.offset(Clock.systemUTC(), ahead);
    TaskSpec task = part.task();
    try (JdbcStore store = AgentDemoSetup.store(dir, clock);
        WorkspaceAdapter ws =
            part == Part.REPAIR ? AgentDemoSetup.workspace(dir, clock, seam) : null) {
      EnvironmentAdapter adapter = part == Part.REPAIR ? ws : ledger(dir, ledger, seam);
      Ratchet ratchet = AgentDemoSetup.ratchet(dir, store, clock, seam, "demo-worker-" + worker);
      try (Run run =
          start
              ? ratchet.start(task, part.runId(), adapter)
              : ratchet.resume(task, part.runId(), adapter)) {
        Recovery r = run.recovery();
        if (r != null) {
          say(RECOVERY + r.found().wireName() + " " + r.did().wireName());
        }
        DriveResult d = agent(dir, part).drive(run, task);
        if (d.kind() == DriveResult.Kind.WAITING) {
          say(WAITING + d.reason());
        } else {
          events(run);
          say(ENDED + run.state().phase().wireName());
        }
      }
    }
    System.exit(0);
  }

  private static IdempotentHttpAdapter ledger(Path dir, URI base, CrashSeam seam) {
    IdempotentHttpAdapter http =
        LedgerApi.adapter(base, LedgerApi.clientSecret(dir.resolve("ledger.db.client-secret")));
    http.crashSeam(seam);
    return http;
  }

  private static DurableAgent agent(Path dir, Part part) {
    return part == Part.REPAIR
        ? DurableAgent.builder(new RepairChatModel(dir.resolve("calls-repair")))
            .goal("the unit test fails: repair app.py so that it passes")
            .maxTurns(6)
            .build()
        : DurableAgent.builder(new PaymentChatModel(dir.resolve("calls-pay")))
            .goal("pay invoice 1004 (42.00 EUR) for " + AgentDemoSetup.ACCOUNT)
            .maxTurns(6)
            .build();
  }

  /** The run's action events, for the parent's evidence table. */
  private static void events(Run run) {
    for (TraceEvent e : run.trace()) {
      if (e.actionId() == null) {
        continue;
      }
      String key =
          e.detail().get("idempotency_key").orElse(null) instanceof JsonString k ? k.value() : "-";
      say(EVENT + e.actionId() + " " + e.kind() + " " + e.outcome() + " " + key);
    }
  }

  private static void say(String line) {
    System.out.println(line);
    System.out.flush();
  }

  /** Dies for real at {@code armed}: tells the parent, waits for its SIGKILL, else halts. */
  private static CrashSeam halting(CrashPoint armed) {
    return reached -> {
      if (reached != armed) {
        return;
      }
      say(CRASH + reached.name());
      try {
        Thread.sleep(WAIT_FOR_KILL_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      Runtime.getRuntime().halt(137);
    };
  }
}
