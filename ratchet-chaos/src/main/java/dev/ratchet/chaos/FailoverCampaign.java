package dev.ratchet.chaos;

import dev.ratchet.harness.ChildJvm;
import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.jdbc.JdbcStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * Failover campaign (issue 43, ADRs 0120 and 0121): ledger runs on a {@link ReplicaPair} whose
 * primary is SIGKILLed and whose standby is promoted, several times a trial, while {@link
 * ContentionWorker} JVMs drive the runs through one URL naming both hosts ({@code
 * targetServerType=primary}). Every worker is a worker of the old primary when it dies and keeps
 * acting through the promotion: a step under way finishes its adapter call on its local lease, its
 * commits fail until the new primary answers, and its lease is fenced there.
 *
 * <p>A promotion: the standby's WAL receiver is stopped (seeded, three times in four; always under
 * the canary) and the workers go on for 50–400 ms — an asynchronous primary acknowledges commits
 * its standby never receives, a synchronous one holds them —, the primary's processes are
 * SIGKILLed, the standby replays what it received and is read ({@link FailoverBook}), it is
 * promoted with {@code pg_ctl promote}, and the dead node rejoins as a new base backup of the new
 * primary. The next promotion comes 0.3–1.8 s after the standby streams again.
 *
 * <p>Verdict: every run as in the other campaigns ({@link RunVerdict}: no effect twice, every
 * receipt reconciled or the evidence of a frozen run, no run left running) and, synchronous: no
 * acknowledged generation lost, no run frozen; asynchronous: frozen runs at most the losses that
 * covered an effect (such a frozen run may lack the receipt of an intent the promotion lost: it
 * froze on the drift that effect left, D13).
 */
final class FailoverCampaign {
  private FailoverCampaign() {}

  static int promotions(Mode mode) {
    return mode == Mode.SMOKE ? 2 : 5;
  }

  static int runs(Mode mode) {
    return mode == Mode.SMOKE ? 12 : 30;
  }

  static TrialResult syncTrial(long seed, Mode mode, boolean canary, Path work) throws Exception {
    return trial(seed, mode, canary, work, true);
  }

  static TrialResult asyncTrial(long seed, Mode mode, boolean canary, Path work) throws Exception {
    return trial(seed, mode, canary, work, false);
  }

  private static TrialResult trial(long seed, Mode mode, boolean canary, Path work, boolean sync)
      throws Exception {
    Random rnd = new Random(seed);
    Tally t = new Tally();
    Path bin =
        ReplicaPair.binaries()
            .orElseThrow(() -> new IllegalStateException("no PostgreSQL server binaries here"));
    Map<String, ReferenceService> services = new LinkedHashMap<>();
    List<ChildJvm> live = new ArrayList<>();
    try (ReplicaPair pair = ReplicaPair.start(bin, sync)) {
      String schema = PgServer.createSchema(pair.primaryUrl());
      int r = runs(mode);
      List<RunVerdict.RunSpec> specs = new ArrayList<>();
      StringBuilder lines = new StringBuilder();
      for (int i = 0; i < r; i++) {
        String id = "ledger-" + i;
        ReferenceService s = ChaosLedger.start(work.resolve(id + ".db"));
        services.put(id, s);
        specs.add(new RunVerdict.RunSpec(id, ChaosTasks.Kind.LEDGER, s.uri().toString()));
        lines.append(id).append(' ').append(s.uri()).append('\n');
      }
      Path runsFile = work.resolve("runs.txt");
      Files.writeString(runsFile, lines);
      Path log = work.resolve("workers.log");
      long deadlineMs = mode == Mode.SMOKE ? 120_000 : 900_000;
      int n = mode == Mode.SMOKE ? 3 : 3 + rnd.nextInt(2);
      t.add("workers", n);
      for (int w = 0; w < n; w++) {
        live.add(
            WorkerJvm.start(
                log,
                ContentionWorker.class,
                List.of(
                    Long.toString(seed),
                    Long.toString(seed * 1_000_003L + w),
                    "worker-" + w,
                    pair.url(),
                    schema,
                    Long.toString(300 + rnd.nextInt(501)),
                    Integer.toString(rnd.nextInt(11)),
                    Long.toString(deadlineMs),
                    Integer.toString(1 + rnd.nextInt(4)),
                    canary ? "fresh" : "false",
                    runsFile.toString())));
      }
      FailoverBook book = new FailoverBook();
      Set<String> endedLive = new HashSet<>();
      long started = System.nanoTime();
      long nextAt = 500 + rnd.nextInt(1_000);
      int steps = 0; // the first promotion waits for the workers to be at work
      while (live.stream().anyMatch(w -> !w.ended())) {
        long now = (System.nanoTime() - started) / 1_000_000;
        if (now > deadlineMs + 30_000) {
          t.fail("workers still running after " + now + " ms");
          break;
        }
        for (ChildJvm w : live) {
          String line;
          while ((line = w.next(0)) != null) {
            if (line.startsWith("END ")) {
              endedLive.add(line.split(" ")[1]);
            }
            if (line.startsWith("STEP ")) {
              steps++;
            }
          }
        }
        if (book.count() < promotions(mode)
            && now >= nextAt
            && steps >= 2 * n
            && endedLive.size() < r) {
          promote(pair, schema, rnd, canary, book, services, t);
          nextAt = (System.nanoTime() - started) / 1_000_000 + 300 + rnd.nextInt(1_500);
        }
        LockSupport.parkNanos(20_000_000L);
      }
      for (ChildJvm w : live) {
        w.kill();
      }
      drainLostEnds(seed, pair, schema, specs, canary, work, log, live, t);
      t.add("promotions", book.count());
      t.add("failover_ms", (System.nanoTime() - started) / 1_000_000);
      List<String> all = new ArrayList<>();
      live.forEach(w -> all.addAll(w.seen()));
      Set<String> ended = new HashSet<>();
      Map<String, CommitClaims> claims = new HashMap<>();
      ContentionCampaign.tally(all, t, ended, claims, p -> p[1] + "@" + eraOf(book, p));
      long covering = book.countLosses(all, t);
      for (String line : all) {
        if (line.startsWith("IDLE")) {
          t.inc("workers_idle");
        }
      }
      if (t.get("workers_idle") < n) {
        t.fail("a worker did not reach IDLE: " + tail(log));
      }
      for (ReferenceService s : services.values()) {
        s.close();
      }
      services.clear();
      ContentionCampaign.judgeRaces(claims, t);
      try (JdbcStore supervisor =
          JdbcStore.open(PgServer.as(pair.url(), schema, PgServer.OWNER, 2), PgServer.options())) {
        for (RunVerdict.RunSpec spec : specs) {
          RunVerdict.judge(
              seed,
              supervisor,
              spec,
              work.resolve(spec.id() + ".db"),
              t,
              !sync && book.covered(spec.id()));
        }
      }
      judgeMode(sync, covering, t);
    } finally {
      for (ChildJvm w : live) {
        w.kill();
      }
      for (ReferenceService s : services.values()) {
        s.close();
      }
    }
    return t.result(seed);
  }

  /**
   * An asynchronous promotion can lose a run's last commits, or all of them, after every worker saw
   * the run end: the workers leave it, and the store holds it running again or not at all. A {@code
   * ratchet worker} would claim it again (its lease lapsed, or its submission's row); these workers
   * stop when they have seen every run end, so one more worker, started after the last promotion,
   * drives the runs the store holds running or has no checkpoint of (counted as {@code
   * drained_runs}). Its lines join the others' for the verdict.
   */
  private static void drainLostEnds(
      long seed,
      ReplicaPair pair,
      String schema,
      List<RunVerdict.RunSpec> specs,
      boolean canary,
      Path work,
      Path log,
      List<ChildJvm> live,
      Tally t)
      throws Exception {
    StringBuilder lines = new StringBuilder();
    int running = 0;
    try (JdbcStore supervisor =
        JdbcStore.open(PgServer.as(pair.url(), schema, PgServer.OWNER, 2), PgServer.options())) {
      for (RunVerdict.RunSpec spec : specs) {
        if (RunVerdict.needsDriving(seed, supervisor, spec)) {
          lines.append(spec.id()).append(' ').append(spec.target()).append('\n');
          running++;
        }
      }
    }
    if (running == 0) {
      return;
    }
    t.add("drained_runs", running);
    Path runsFile = work.resolve("drain.txt");
    Files.writeString(runsFile, lines);
    ChildJvm drain =
        WorkerJvm.start(
            log,
            ContentionWorker.class,
            List.of(
                Long.toString(seed),
                Long.toString(seed * 1_000_003L + 99),
                "drain",
                pair.url(),
                schema,
                "1000",
                "0",
                "60000",
                "0",
                canary ? "fresh" : "false",
                runsFile.toString()));
    live.add(drain);
    if (!drain.awaitExit(90_000)) {
      t.fail("the drain worker still running after 90 s");
    }
    drain.kill();
  }

  private static int eraOf(FailoverBook book, String[] step) {
    return step.length >= 5 ? book.eraOf(Long.parseLong(step[4])) : 0;
  }

  /** What each mode must hold beyond the per-run verdict (issue 43 item 3). */
  private static void judgeMode(boolean sync, long covering, Tally t) {
    long frozen = t.get("phase.needs_review");
    t.add("frozen_runs", frozen);
    if (sync) {
      if (t.get("generations_lost") > 0) {
        t.fail("synchronous: " + t.get("generations_lost") + " acknowledged generations lost");
      }
      if (frozen > 0) {
        t.fail("synchronous: " + frozen + " runs frozen");
      }
      if (t.get("completed") != t.get("runs")) {
        t.fail("synchronous: " + t.get("completed") + " of " + t.get("runs") + " runs completed");
      }
    } else if (frozen > covering) {
      t.fail(
          "asynchronous: "
              + frozen
              + " runs frozen, more than the "
              + covering
              + " losses that covered an effect");
    }
  }

  /** One failover: cut (seeded), kill, read the standby, promote, rebuild the standby. */
  private static void promote(
      ReplicaPair pair,
      String schema,
      Random rnd,
      boolean canary,
      FailoverBook book,
      Map<String, ReferenceService> services,
      Tally t)
      throws Exception {
    if (rnd.nextInt(4) != 0 || canary) { // the canary needs lost generations to show
      pair.cutReplication();
      t.inc("replication_cuts");
    }
    LockSupport.parkNanos((50 + rnd.nextInt(351)) * 1_000_000L);
    pair.killPrimary();
    t.inc("kills_primary_sigkill");
    pair.awaitStandbyReplayed(30_000);
    book.readStandby(pair.standbyUrl(), schema);
    long at = System.nanoTime();
    pair.promote();
    // Counted after the promotion: an old worker's call under way may still land (a later count
    // only widens the bound on frozen runs, never narrows it).
    Map<String, Integer> orders = new HashMap<>();
    services.forEach((id, s) -> orders.put(id, s.orders().size()));
    book.promoted(at, orders);
    long ms = System.nanoTime();
    pair.rebuildStandby();
    t.add("rebuild_ms", (System.nanoTime() - ms) / 1_000_000);
  }

  private static String tail(Path log) {
    try {
      List<String> l = Files.readAllLines(log);
      return String.join(" / ", l.subList(Math.max(0, l.size() - 8), l.size()));
    } catch (java.io.IOException e) {
      return "";
    }
  }
}
