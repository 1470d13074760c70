package dev.ratchet.agentdemo;

import dev.ratchet.Ratchet;
import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapters.HttpAction;
import dev.ratchet.adapters.LedgerApi;
import dev.ratchet.adapters.WorkspaceAdapter;
import dev.ratchet.agentdemo.AgentDemoSetup.Part;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.harness.ChildJvm;
import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.model.Approval;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.model.RunState;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.seam.Seams;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code ratchet demo agent}: two LangChain4j agents driven by scripted chat models (offline) on a
 * fresh SQLite store in {@code dir}, each in worker JVMs. The first repairs a failing test in a
 * workspace and is killed with SIGKILL right after its write's intent committed; the second pays an
 * order that needs a signed approval (alice's Ed25519 key, delivered to the run's inbox) against
 * the reference ledger service, and is killed inside the adapter after the payment took effect.
 * Fresh workers resume both. The report counts every effect in the ledger and every model call, and
 * the demo exits 0 only if each is exactly once and both runs completed verified.
 */
public final class AgentDemo {
  private static final long LINE_TIMEOUT_MS = 120_000;

  /** A class path without an SLF4J provider (a test's) would print a warning in every worker. */
  static final List<String> JVM_FLAGS =
      java.util.stream.Stream.concat(
              ChildJvm.FAST_START.stream(),
              java.util.stream.Stream.of("-Dslf4j.internal.verbosity=ERROR"))
          .toList();

  /** One crash and what the next worker's recovery made of it. */
  record Crash(String window, String run, String call, String found, String did) {}

  /** What one worker JVM printed and how it ended. */
  record Ended(boolean killed, String crashPoint, List<String> lines, int exit) {}

  private final PrintWriter out;
  private final Path dir;
  private final long startedMs = System.currentTimeMillis();
  final List<Crash> crashes = new ArrayList<>();
  final List<String> problems = new ArrayList<>();
  final List<String> events = new ArrayList<>();
  int workers;
  int kills;
  private ReferenceService ledger;

  private AgentDemo(PrintWriter out, Path dir) {
    this.out = out;
    this.dir = dir;
  }

  /** Runs the demo in {@code dir} (empty) and returns its exit code. */
  public static int run(PrintWriter out, Path dir) {
    return new AgentDemo(out, dir).run();
  }

  private int run() {
    try {
      AgentDemoSetup.createKeys(dir);
      Files.createDirectories(dir.resolve("workspace"));
      Files.writeString(
          dir.resolve("workspace").resolve(AgentDemoSetup.APP), AgentDemoSetup.BROKEN);
    } catch (IOException e) {
      throw new RatchetException(ErrorCode.INTERNAL, "demo set-up failed: " + e.getMessage());
    }
    try (ReferenceService service = ReferenceService.start(dir.resolve("ledger.db"), 0)) {
      ledger = service;
      say("demo in " + dir + ": reference ledger service at " + service.uri());
      if (scenario()) {
        say("all workers done");
      }
      return AgentDemoReport.print(this, out, service);
    }
  }

  /** Both agents with their two SIGKILLs and the approval; false when a worker misbehaved. */
  private boolean scenario() {
    say("agent 1 repairs app.py: its unit test fails");
    if (!crash(Part.REPAIR, true, CrashPoint.AFTER_INTENT_COMMIT)) {
      return false;
    }
    if (!expect(
        Part.REPAIR, worker(Part.REPAIR, false, null), AgentDemoWorker.ENDED + "completed")) {
      return false;
    }
    say("agent 2 pays invoice 1004: a payment needs a signed approval");
    if (!expect(Part.PAY, worker(Part.PAY, true, null), AgentDemoWorker.WAITING)) {
      return false;
    }
    approve();
    if (!crash(Part.PAY, false, CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT)) {
      return false;
    }
    return expect(Part.PAY, worker(Part.PAY, false, null), AgentDemoWorker.ENDED + "completed");
  }

  /** A worker that must die at {@code point}; the next worker's recovery closes the row. */
  private boolean crash(Part part, boolean start, CrashPoint point) {
    Ended e = worker(part, start, point);
    if (!e.killed() || !point.name().equals(e.crashPoint())) {
      problems.add("worker " + workers + " was to die at " + wire(point) + ": " + tail(e));
      return false;
    }
    PendingIntent p = state(part).pending();
    String call = p == null ? "-" : p.action().actionId() + " " + p.action().kind();
    crashes.add(new Crash(wire(point), part.runId(), call, "?", "?"));
    return true;
  }

  private boolean expect(Part part, Ended e, String prefix) {
    for (String line : e.lines()) {
      if (line.startsWith(AgentDemoWorker.RECOVERY) && !crashes.isEmpty()) {
        Crash c = crashes.remove(crashes.size() - 1);
        String[] w = line.substring(AgentDemoWorker.RECOVERY.length()).split(" ");
        crashes.add(
            c.found().equals("?") ? new Crash(c.window(), c.run(), c.call(), w[0], w[1]) : c);
      }
      if (line.startsWith(AgentDemoWorker.EVENT)) {
        events.add(part.runId() + " " + line.substring(AgentDemoWorker.EVENT.length()));
      }
      if (line.startsWith(prefix) && e.exit() == 0) {
        return true;
      }
    }
    problems.add("worker " + workers + " did not print '" + prefix + "': " + tail(e));
    return false;
  }

  private Ended worker(Part part, boolean start, CrashPoint point) {
    workers++;
    say(
        "worker "
            + workers
            + (start ? " starts " : " resumes ")
            + part.runId()
            + (point == null ? "" : ", to be killed at " + wire(point)));
    List<String> cmd =
        ChildJvm.command(
            JVM_FLAGS,
            System.getProperty("java.class.path"),
            AgentDemoWorker.class.getName(),
            List.of(
                dir.toString(),
                ledger.uri().toString(),
                part.name(),
                point == null ? "none" : point.name(),
                Integer.toString(workers),
                start ? "start" : "resume"));
    try {
      ChildJvm child = ChildJvm.start(new ProcessBuilder(cmd).redirectErrorStream(true));
      String line;
      while ((line = child.next(LINE_TIMEOUT_MS)) != null) {
        say("  " + line);
        if (line.startsWith(AgentDemoWorker.CRASH)) {
          child.kill();
          kills++;
          say("  SIGKILL at " + wire(point) + " (exit " + child.exitCode() + ")");
          String at = line.substring(AgentDemoWorker.CRASH.length());
          return new Ended(true, at, child.seen(), child.exitCode());
        }
      }
      if (!child.awaitExit(LINE_TIMEOUT_MS)) {
        child.kill();
      }
      return new Ended(false, null, child.seen(), child.exitCode());
    } catch (IOException e) {
      throw new RatchetException(ErrorCode.INTERNAL, "cannot start a worker: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RatchetException(ErrorCode.INTERNAL, "interrupted while a worker ran");
    }
  }

  /** The approver's side: alice signs the waiting payment with her Ed25519 key and delivers it. */
  private void approve() {
    Clock clock = Clock.systemUTC();
    try (JdbcStore store = AgentDemoSetup.store(dir, clock)) {
      Ratchet r = AgentDemoSetup.ratchet(dir, store, clock, CrashSeam.NONE, "approver");
      RunState st = r.verify(Part.PAY.task(), Part.PAY.runId(), specs(Part.PAY));
      Approval a =
          Approval.ofPending(
              "alice",
              st,
              Part.PAY.task(),
              st.usage().proposals() + 10,
              clock.millis() + 3_600_000,
              "approval-" + Seams.secureEntropy().hex128());
      r.deliver(dev.ratchet.Ratchet.sign(a, AgentDemoSetup.approver(dir)));
      say(
          "approval of "
              + st.pending().action().actionId()
              + " ("
              + st.pending().action().kind()
              + ") signed by alice (Ed25519) and delivered to the run's inbox");
    }
  }

  RunState state(Part part) {
    Clock clock = Clock.systemUTC();
    try (JdbcStore store = AgentDemoSetup.store(dir, clock)) {
      Ratchet r = AgentDemoSetup.ratchet(dir, store, clock, CrashSeam.NONE, "reader");
      return r.verify(part.task(), part.runId(), specs(part));
    }
  }

  /** The action declarations of a part's adapter (a read-only check needs no live adapter). */
  private List<ActionSpec> specs(Part part) {
    if (part == Part.PAY) {
      return LedgerApi.actions().stream().map(HttpAction::spec).toList();
    }
    try (WorkspaceAdapter ws = AgentDemoSetup.workspace(dir, Clock.systemUTC(), CrashSeam.NONE)) {
      return ws.actionSpecs();
    }
  }

  Path dir() {
    return dir;
  }

  long startedMs() {
    return startedMs;
  }

  void say(String line) {
    double s = (System.currentTimeMillis() - startedMs) / 1000.0;
    out.printf(Locale.ROOT, "[%5.1fs] %s%n", s, line);
    out.flush();
  }

  private static String wire(CrashPoint p) {
    return p.name().toLowerCase(Locale.ROOT);
  }

  private static String tail(Ended e) {
    List<String> l = e.lines();
    return "exit "
        + e.exit()
        + ": "
        + String.join(" | ", l.subList(Math.max(0, l.size() - 6), l.size()));
  }
}
