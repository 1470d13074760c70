package dev.ratchet.chaos;

import dev.ratchet.CrashPoint;
import dev.ratchet.CrashSeam;
import dev.ratchet.Ratchet;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapters.LedgerApi;
import dev.ratchet.adapters.ReferenceService;
import dev.ratchet.adapters.WorkspaceAdapter;
import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.StoreOptions;
import dev.ratchet.model.Phase;
import dev.ratchet.model.RunState;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

/**
 * Crash campaign (issue #8 item 1). A trial puts several runs (ledger runs, each on its own
 * reference service hosted by the supervisor; workspace runs, each in its own directory) on one
 * SQLite store (one database, or split mark/content for a third of the seeds), then for each of its
 * kill events starts a {@link CrashWorker} JVM (sometimes two racing for the same runs, sometimes
 * with leases short enough to expire under load) and kills it: through a crash seam that halts the
 * JVM inside a chosen window on its n-th visit, or by SIGKILL after a random number of steps and a
 * random delay. Each restart runs on a clock an hour later, so it may take over the leases of the
 * dead. After each event the supervisor checks that no run's generation went back; at the end a
 * drain worker finishes what is left and the external ledgers are judged (D18): each intent's
 * effect at most once, exactly once for a completed run; every receipt the adapters issued is in
 * its run's receipts set, or is the evidence held by the open review case of its frozen run; no run
 * is left running, and every run that did not complete names its reason.
 *
 * <p>The canary ({@code --canary}) wraps every adapter in the testkit's {@code KeyChangingAdapter}
 * and aims the first kill at the adapter's window after its external commit. The runtime never
 * re-executes under a key it cannot find, so the canary does not produce duplicates here: recovery
 * sees the environment moved without a receipt for the run's key and freezes the run for drift. The
 * receipt the service issued under the changed key is then in no run's evidence, and the receipt
 * check fails the trial.
 */
final class CrashCampaign {
  private CrashCampaign() {}

  /** One run of a trial and where its environment lives. */
  record RunSpec(String id, ChaosTasks.Kind kind, String target) {
    String arg() {
      return id + "=" + kind + ":" + target;
    }
  }

  static int killsPerTrial(Mode mode) {
    return mode == Mode.SMOKE ? 3 : 6;
  }

  static JdbcStore openStore(String spec, StoreOptions options) {
    String[] p = spec.split(":", 2);
    if (p[0].equals("single")) {
      return JdbcStore.open(Database.sqlite(Path.of(p[1])), options);
    }
    String[] files = p[1].split(",", 2);
    return JdbcStore.split(
        Database.sqlite(Path.of(files[0])), Database.sqlite(Path.of(files[1])), options);
  }

  static TrialResult trial(long seed, Mode mode, boolean canary, Path work) throws Exception {
    Random rnd = new Random(seed);
    Tally t = new Tally();
    boolean split = rnd.nextInt(3) == 0;
    String storeSpec =
        split
            ? "split:" + work.resolve("marks.db") + "," + work.resolve("content.db")
            : "single:" + work.resolve("store.db");
    t.inc(split ? "stores_split" : "stores_single");
    List<CrashPoint> points =
        new ArrayList<>(
            List.of(
                CrashPoint.BEFORE_PROPOSAL,
                CrashPoint.AFTER_INTENT_COMMIT,
                CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT,
                CrashPoint.BEFORE_RECEIPT_COMMIT,
                CrashPoint.AFTER_RECEIPT_COMMIT));
    if (split) {
      points.add(CrashPoint.STORE_BETWEEN_CONTENT_AND_MARK);
    }
    Path log = work.resolve("workers.log");
    Map<String, ReferenceService> services = new LinkedHashMap<>();
    List<RunSpec> runs = new ArrayList<>();
    InstantSource supervisorClock = Clock.systemUTC();
    try (JdbcStore store =
        openStore(
            storeSpec, StoreOptions.defaults(supervisorClock).withOpenMode(OpenMode.CREATE))) {
      int perKind = mode == Mode.SMOKE ? 2 : 3;
      for (int i = 0; i < perKind; i++) {
        String id = "ledger-" + i;
        ReferenceService s = ReferenceService.start(work.resolve(id + ".db"), 0);
        services.put(id, s);
        runs.add(new RunSpec(id, ChaosTasks.Kind.LEDGER, s.uri().toString()));
        Path ws = Files.createDirectories(work.resolve("ws-" + i));
        runs.add(new RunSpec("ws-" + i, ChaosTasks.Kind.WORKSPACE, ws.toString()));
      }
      Map<String, Long> highest = new HashMap<>();
      int incarnation = 0;
      int events = killsPerTrial(mode);
      for (int e = 0; e < events; e++) {
        incarnation++;
        boolean race = !canary && rnd.nextInt(4) == 0;
        boolean shortLease = race || rnd.nextInt(3) == 0;
        String crash = "none";
        if (canary && e == 0) {
          crash = CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT + ":1";
        } else if (rnd.nextBoolean()) {
          crash = points.get(rnd.nextInt(points.size())) + ":" + (1 + rnd.nextInt(4));
        }
        long ttl = shortLease ? 100 + rnd.nextInt(400) : 1_800_000;
        List<WorkerProcess> workers = new ArrayList<>();
        for (int w = 0; w < (race ? 2 : 1); w++) {
          workers.add(
              WorkerProcess.start(
                  log,
                  workerArgs(
                      seed,
                      incarnation,
                      w,
                      storeSpec,
                      ttl,
                      w == 0 ? crash : "none",
                      canary,
                      runs)));
        }
        if (race) {
          t.inc("races");
        }
        if (shortLease) {
          t.inc("short_leases");
        }
        if (!crash.equals("none")) {
          WorkerProcess w0 = workers.get(0);
          if (!w0.awaitExit(90_000)) {
            t.fail("event " + e + ": worker armed at " + crash + " neither halted nor finished");
          }
          if (w0.seen().stream().anyMatch(l -> l.startsWith("HALT "))) {
            t.inc("kills_seam");
            t.inc("seam." + crash.split(":")[0].toLowerCase(java.util.Locale.ROOT));
          } else {
            t.inc("seam_not_reached");
          }
        } else {
          int steps = 1 + rnd.nextInt(8);
          int seen = 0;
          long deadline = System.nanoTime() + 90_000_000_000L;
          WorkerProcess w0 = workers.get(0);
          while (seen < steps && !w0.ended() && System.nanoTime() < deadline) {
            String line = w0.next(1_000);
            if (line != null && line.startsWith("STEP ")) {
              seen++;
            }
          }
          LockSupport.parkNanos(rnd.nextInt(20_000) * 1_000L);
          if (w0.ended()) {
            t.inc("finished_before_kill");
          } else {
            t.inc("kills_sigkill");
          }
        }
        for (WorkerProcess w : workers) {
          w.kill();
          tallyLines(w, t);
        }
        checkGenerations(store, runs, highest, t, "after event " + e);
      }
      // The drain: one worker, no crash, long lease, later than every other clock.
      WorkerProcess drain =
          WorkerProcess.start(
              log,
              workerArgs(seed, incarnation + 1, 0, storeSpec, 1_800_000, "none", canary, runs));
      if (!drain.awaitExit(180_000)) {
        drain.kill();
        t.fail("the drain worker did not finish");
      }
      tallyLines(drain, t);
      if (!drain.seen().contains("IDLE")) {
        t.fail("the drain worker did not reach IDLE: " + tail(drain.seen()));
      }
      checkGenerations(store, runs, highest, t, "after the drain");
      for (ReferenceService s : services.values()) {
        s.close();
      }
      services.clear();
      for (RunSpec r : runs) {
        judge(seed, store, r, work, t);
      }
    } finally {
      for (ReferenceService s : services.values()) {
        s.close();
      }
    }
    return t.result(seed);
  }

  private static List<String> workerArgs(
      long seed,
      int incarnation,
      int index,
      String storeSpec,
      long ttlMs,
      String crash,
      boolean canary,
      List<RunSpec> runs) {
    List<String> a = new ArrayList<>();
    a.add(Long.toString(seed));
    a.add(Long.toString(seed * 1_000_003L + incarnation * 31L + index));
    a.add("worker-" + incarnation + "-" + index);
    a.add(storeSpec);
    a.add(Long.toString(incarnation * 3_600_000L));
    a.add(Long.toString(ttlMs));
    a.add(crash);
    a.add(Boolean.toString(canary));
    runs.forEach(r -> a.add(r.arg()));
    return a;
  }

  private static void tallyLines(WorkerProcess w, Tally t) {
    for (String l : w.seen()) {
      if (l.startsWith("STEP ")) {
        t.inc("steps");
      } else if (l.startsWith("RETRY ")) {
        t.inc("retries");
      } else if (l.startsWith("ORPHAN ")) {
        t.inc("orphan_leases_cleared");
      } else if (l.startsWith("ERROR ")) {
        t.inc("worker_errors");
      } else if (l.startsWith("GAVEUP ")) {
        t.inc("worker_gave_up");
      }
    }
  }

  private static void checkGenerations(
      JdbcStore store, List<RunSpec> runs, Map<String, Long> highest, Tally t, String when) {
    for (RunSpec r : runs) {
      try {
        long g =
            store
                .load(ChaosTasks.task(r.kind()).taskId(), r.id())
                .map(StoredRun::generation)
                .orElse(0L);
        long before = highest.getOrDefault(r.id(), 0L);
        if (g < before) {
          t.inc("generation_regressions");
          t.fail(r.id() + ": generation went back from " + before + " to " + g + " " + when);
        }
        highest.put(r.id(), Math.max(g, before));
      } catch (RuntimeException e) {
        t.fail(r.id() + ": the store refused a load " + when + ": " + e);
      }
    }
  }

  /** The end-of-trial verdict on one run, from the store and the external system's own ledger. */
  private static void judge(long seed, JdbcStore store, RunSpec r, Path work, Tally t)
      throws SQLException {
    TaskSpec task = ChaosTasks.task(r.kind());
    Phase phase;
    String reason;
    String evidenceKey;
    EnvironmentAdapter adapter =
        r.kind() == ChaosTasks.Kind.LEDGER
            ? LedgerApi.adapter(java.net.URI.create(r.target()))
            : WorkspaceAdapter.builder(Path.of(r.target())).open();
    try {
      Ratchet auditor =
          ChaosTasks.ratchet(
              seed,
              store,
              store,
              Clock.systemUTC(),
              "auditor",
              Duration.ofMinutes(1),
              CrashSeam.NONE,
              0);
      RunState s = auditor.verify(task, r.id(), adapter);
      phase = s.phase();
      evidenceKey =
          s.review() != null && s.review().observedReceipt() != null
              ? s.review().observedReceipt().idempotencyKey()
              : null;
      reason =
          s.stopReason() != null ? s.stopReason() : s.review() != null ? s.review().reason() : null;
    } catch (RuntimeException e) {
      t.inc("lost_runs");
      t.fail(r.id() + ": the run does not verify at the end: " + e);
      return;
    } finally {
      if (adapter instanceof AutoCloseable c) {
        try {
          c.close();
        } catch (Exception ignored) {
          // closing a journal after the verdict cannot change it
        }
      }
    }
    t.inc("runs");
    t.inc("phase." + phase.wireName());
    if (phase == Phase.RUNNING) {
      t.inc("lost_runs");
      t.fail(r.id() + ": still running after the drain");
    } else if (phase != Phase.COMPLETED && reason == null) {
      t.fail(r.id() + ": ended " + phase.wireName() + " without a reason");
    }
    Map<String, Integer> effects = new HashMap<>();
    List<String> receipts = new ArrayList<>();
    List<String> indeterminate = new ArrayList<>();
    if (r.kind() == ChaosTasks.Kind.LEDGER) {
      try (Connection c =
          DriverManager.getConnection("jdbc:sqlite:" + work.resolve(r.id() + ".db"))) {
        query(c, "SELECT sku FROM orders", rs -> effects.merge(rs.getString(1), 1, Integer::sum));
        query(c, "SELECT idem_key FROM idempotency", rs -> receipts.add(rs.getString(1)));
      }
    } else {
      Path file = Path.of(r.target()).resolve(ChaosTasks.LOG);
      try {
        if (Files.exists(file)) {
          for (String l : Files.readAllLines(file)) {
            effects.merge(l, 1, Integer::sum);
          }
        }
      } catch (java.io.IOException e) {
        t.fail(r.id() + ": cannot read the workspace log: " + e);
      }
      Path journal =
          Path.of(r.target()).resolve(WorkspaceAdapter.CONTROL_DIR).resolve("receipts.db");
      if (Files.exists(journal)) {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + journal)) {
          query(c, "SELECT idem_key FROM receipts", rs -> receipts.add(rs.getString(1)));
          query(c, "SELECT idem_key FROM intents", rs -> indeterminate.add(rs.getString(1)));
        }
      }
    }
    List<String> expected = ChaosTasks.effects(r.kind());
    for (Map.Entry<String, Integer> e : effects.entrySet()) {
      if (!expected.contains(e.getKey())) {
        t.fail(r.id() + ": an effect no intent asked for: " + e.getKey());
      } else if (e.getValue() > 1) {
        t.add("duplicates", e.getValue() - 1);
        t.fail(r.id() + ": effect " + e.getKey() + " happened " + e.getValue() + " times");
      }
    }
    if (phase == Phase.COMPLETED) {
      t.inc("completed");
      for (String x : expected) {
        if (effects.getOrDefault(x, 0) != 1) {
          t.fail(
              r.id()
                  + ": completed, but effect "
                  + x
                  + " happened "
                  + effects.getOrDefault(x, 0)
                  + " times");
        }
      }
    }
    t.add("effects", effects.values().stream().mapToInt(Integer::intValue).sum());
    t.add("receipts_issued", receipts.size());
    for (String key : receipts) {
      boolean reconciled = store.find(task.taskId(), r.id(), RecordSet.RECEIPTS, key).isPresent();
      if (reconciled) {
        t.inc("receipts_reconciled");
      } else if (phase == Phase.NEEDS_REVIEW && key.equals(evidenceKey)) {
        t.inc("receipts_frozen_with_evidence");
      } else {
        t.inc("lost_receipts");
        t.fail(
            r.id()
                + ": receipt "
                + key
                + " is neither reconciled nor the evidence of its review case");
      }
    }
    if (!indeterminate.isEmpty() && phase != Phase.NEEDS_REVIEW) {
      t.fail(
          r.id()
              + ": the workspace holds indeterminate intents "
              + indeterminate
              + " but the run is "
              + phase.wireName());
    }
  }

  /** Row callback. */
  private interface Rows {
    void row(ResultSet rs) throws SQLException;
  }

  private static void query(Connection c, String sql, Rows rows) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rows.row(rs);
      }
    }
  }

  private static String tail(List<String> lines) {
    return String.join(" / ", lines.subList(Math.max(0, lines.size() - 8), lines.size()));
  }
}
