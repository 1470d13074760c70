package dev.ratchet.harness.demo;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.RunState;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.Entropy;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code ratchet demo}: the demo task on a fresh SQLite store (content and marks in two files, so
 * the split-store window exists too) in a temporary directory. Real worker JVMs are killed with
 * SIGKILL once in every crash window and restarted; each restart recovers from the store alone. One
 * write is hijacked by a foreign client using the run's key for another intent: the run freezes in
 * needs_review and a signed replan resolves it with a new key. Then every intent's effects are
 * counted in the ledger file itself, the final state is verified, and the demo exits non-zero if
 * any count is not 1 or the run did not complete verified.
 *
 * <p>A harness apart from the command line (ADR 0011): it drives the run through public seams only,
 * the library's front door, the task-file format, key files and the store's public API; the {@code
 * ratchet demo} command only calls {@link #run}.
 */
public final class Demo {
  static final long LEASE_TTL_MS = 2_000;

  /** One crash and what the next recovery made of it. */
  record Row(String window, String step, String found, String did) {}

  private final InstantSource clock;
  private final Entropy entropy;
  private final PrintWriter out;
  private final Path dir;
  private final boolean canary;
  private final DemoHome home;
  private final long startedMs;
  private final List<Row> rows = new ArrayList<>();
  private final List<String> problems = new ArrayList<>();
  private int workers;
  private int kills;
  private final Set<String> windowsKilled = new TreeSet<>();
  private String quarantinedKey;
  private final DemoOperator operator = new DemoOperator(this);

  private Demo(InstantSource clock, Entropy entropy, PrintWriter out, Path dir, boolean canary) {
    this.clock = clock;
    this.entropy = entropy;
    this.out = out;
    this.dir = dir;
    this.canary = canary;
    this.home = new DemoHome(dir.resolve("home"));
    this.startedMs = clock.millis();
  }

  /**
   * Runs the demo in {@code dir} (empty) and returns its exit code: 0 only when every intent took
   * effect once and the run completed verified. {@code canary} puts the key-changing canary (SPEC
   * D18) in every worker, so that the demo must fail.
   */
  public static int run(
      InstantSource clock, Entropy entropy, PrintWriter out, Path dir, boolean canary) {
    return new Demo(clock, entropy, out, dir, canary).run();
  }

  private int run() {
    Path workspace = dir.resolve("workspace");
    Path taskFile = taskFile();
    setUp(workspace, taskFile);
    say(
        "demo in "
            + dir
            + ": task "
            + DemoScenario.TASK_ID
            + " appends "
            + DemoScenario.ENTRIES.size()
            + " entries to "
            + workspace.resolve(DemoScenario.LEDGER)
            + (canary ? " (CANARY: the adapter sees a changed key on every write)" : ""));
    List<CrashPoint> windows =
        List.of(
            CrashPoint.BEFORE_PROPOSAL,
            CrashPoint.AFTER_INTENT_COMMIT,
            CrashPoint.AFTER_APPROVAL_COMMIT,
            // D22: a receipt rides on the next intent's commit, so this window consumes a write
            // and leaves the next one pending; early enough that e5 stays for the conflict.
            CrashPoint.AFTER_RECEIPT_COMMIT,
            CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT,
            CrashPoint.BEFORE_RECEIPT_COMMIT,
            CrashPoint.STORE_BETWEEN_CONTENT_AND_MARK);
    String pendingWindow = null;
    String pendingStep = null;
    boolean first = true;
    for (CrashPoint w : windows) {
      DemoWorkers.Ended e = worker(first ? taskFile : null, w);
      first = false;
      closeRow(pendingWindow, pendingStep, e);
      if (!expectKilled(e, w)) {
        return report();
      }
      pendingWindow = w.name().toLowerCase(Locale.ROOT);
      pendingStep = stepAtIssue(w);
    }
    // The conflict: a worker dies right after committing the intent of e5; a foreign client then
    // uses that idempotency key for another write at the adapter.
    DemoWorkers.Ended e = worker(null, CrashPoint.AFTER_INTENT_COMMIT);
    closeRow(pendingWindow, pendingStep, e);
    if (!expectKilled(e, CrashPoint.AFTER_INTENT_COMMIT)) {
      return report();
    }
    pendingStep = stepAtIssue(CrashPoint.AFTER_INTENT_COMMIT);
    quarantinedKey = operator.foreignWrite();
    DemoWorkers.Ended frozen = worker(null, null);
    closeRow("after_intent_commit + foreign write", pendingStep, frozen);
    if (frozen.exitCode() != ErrorCode.REVIEW_REQUIRED.exitCode() || !operator.isFrozen()) {
      problems.add(
          "the conflicting receipt did not freeze the run (worker exit " + frozen.exitCode() + ")");
      return report();
    }
    operator.signReplan();
    DemoWorkers.Ended last = worker(null, null);
    if (last.exitCode() != 0) {
      problems.add("the last worker ended with exit " + last.exitCode() + ": " + tail(last));
    }
    return report();
  }

  private void setUp(Path workspace, Path taskFile) {
    try {
      Files.createDirectories(workspace);
      Files.writeString(workspace.resolve(DemoScenario.LEDGER), DemoScenario.HEADER);
      home.create(entropy);
      Files.writeString(
          taskFile, DemoScenario.taskFile(workspace, "workspace"), StandardCharsets.UTF_8);
    } catch (IOException ex) {
      throw new RatchetException(ErrorCode.INTERNAL, "demo set-up failed: " + ex.getMessage());
    }
  }

  private DemoWorkers.Ended worker(Path start, CrashPoint crashAt) {
    workers++;
    List<String> args =
        new ArrayList<>(
            List.of(
                "--run-id",
                DemoScenario.RUN_ID,
                "--home",
                home.dir().toString(),
                "--task",
                taskFile().toString(),
                "--lease-ttl-ms",
                Long.toString(LEASE_TTL_MS),
                "--worker-id",
                "demo-worker-" + workers));
    if (start != null) {
      args.add("--start");
    }
    if (crashAt != null) {
      args.addAll(List.of("--crash-at", crashAt.name()));
    }
    if (canary) {
      args.add("--canary");
    }
    say(
        "worker "
            + workers
            + (start != null ? " starts the run" : " recovers the run")
            + (crashAt == null
                ? ""
                : ", to be killed at " + crashAt.name().toLowerCase(Locale.ROOT)));
    DemoWorkers.Ended e =
        DemoWorkers.run(
            args,
            line -> say("  " + line),
            json -> {
              JsonObject r = (JsonObject) Json.parse(json);
              say("  recovery: found " + text(r, "found") + ", did " + text(r, "did"));
            },
            operator::approve);
    if (e.killed()) {
      kills++;
      windowsKilled.add(e.crashPoint());
      say(
          "  SIGKILL at "
              + e.crashPoint().toLowerCase(Locale.ROOT)
              + " (exit "
              + e.exitCode()
              + ")");
    }
    return e;
  }

  private boolean expectKilled(DemoWorkers.Ended e, CrashPoint w) {
    if (e.killed() && w.name().equals(e.crashPoint())) {
      return true;
    }
    problems.add(
        "worker "
            + workers
            + " was to die at "
            + w.name().toLowerCase(Locale.ROOT)
            + " but ended with exit "
            + e.exitCode()
            + ": "
            + tail(e));
    return false;
  }

  private void closeRow(String window, String step, DemoWorkers.Ended next) {
    if (window == null) {
      return;
    }
    String found = "-";
    String did = "-";
    if (next.recoveryJson() != null) {
      JsonObject r = (JsonObject) Json.parse(next.recoveryJson());
      found = text(r, "found");
      did = text(r, "did");
      if (!text(r, "review_reason").isEmpty()) {
        did += " (" + text(r, "review_reason") + ")";
      }
    }
    rows.add(new Row(window, step, found, did));
  }

  /** The plan step the crash concerned, read from the verified state the crash left. */
  private String stepAtIssue(CrashPoint w) {
    try (DemoRun r = new DemoRun(this)) {
      RunState st = r.state;
      if (st.pending() != null) {
        return stepOf(st.pending().action().actionId());
      }
      long index = w == CrashPoint.AFTER_RECEIPT_COMMIT ? st.cursor() - 1 : st.cursor();
      return index < DemoScenario.ENTRIES.size() ? DemoScenario.stepId((int) index) : "-";
    }
  }

  private static String stepOf(String actionId) {
    int hash = actionId.lastIndexOf('#');
    return hash < 0 ? actionId : actionId.substring(0, hash);
  }

  private int report() {
    return DemoReport.print(this);
  }

  // ---- accessors for the report ------------------------------------------------------------

  InstantSource clock() {
    return clock;
  }

  Entropy entropy() {
    return entropy;
  }

  DemoHome home() {
    return home;
  }

  Path taskFile() {
    return dir.resolve("ledger-task.json");
  }

  PrintWriter out() {
    return out;
  }

  Path dir() {
    return dir;
  }

  boolean canary() {
    return canary;
  }

  List<Row> rows() {
    return rows;
  }

  List<String> problems() {
    return problems;
  }

  int kills() {
    return kills;
  }

  int windowsKilled() {
    return windowsKilled.size();
  }

  int workers() {
    return workers;
  }

  String quarantinedKey() {
    return quarantinedKey;
  }

  long startedMs() {
    return startedMs;
  }

  void say(String line) {
    long ms = clock.millis() - startedMs;
    out.printf(Locale.ROOT, "[%5.1fs] %s%n", ms / 1000.0, line);
    out.flush();
  }

  static String tail(DemoWorkers.Ended e) {
    List<String> l = e.lines();
    return l.isEmpty()
        ? "(no output)"
        : String.join(" | ", l.subList(Math.max(0, l.size() - 6), l.size()));
  }

  static String text(JsonObject o, String key) {
    return o.get(key).orElse(null) instanceof JsonString s ? s.value() : "";
  }
}
