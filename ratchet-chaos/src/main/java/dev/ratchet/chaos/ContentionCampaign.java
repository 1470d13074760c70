package dev.ratchet.chaos;

import dev.ratchet.error.RatchetException;
import dev.ratchet.harness.ChildJvm;
import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.testkit.ThrowawayPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

/**
 * Contention campaign on PostgreSQL (issue #8 item 3) and its database-fault variant (item 4).
 *
 * <p>A trial creates a fresh schema (owner-migrated, granted to the worker role) on the shared
 * PostgreSQL service, or — for the database-fault variant — on a {@link ThrowawayPostgres} of its
 * own, and puts R ledger runs on it, each against its own {@link ReferenceService} hosted by the
 * supervisor (a service's revision is global, so two runs on one service would drift each other). N
 * {@link ContentionWorker} JVMs then compete for all runs at once with leases of 200–500 ms (judged
 * on the database clock): each picks runs at random, takes a few steps, and sometimes stalls past
 * its lease, so the others take the run over and it is fenced. The supervisor SIGKILLs a random
 * worker at seeded moments and starts a replacement; in the fault variant it also stops the cluster
 * at once ({@code pg_ctl -m immediate}, as a crash) and restarts it, at seeded moments, while the
 * workers run. It checks that no run's generation ever goes back (polled while the workers run).
 * Finally a drain worker with a long lease finishes what is left, and every run is judged exactly
 * as in the crash campaign: from the store and the service's own ledger, each intent's effect at
 * most once and exactly once when the run completed, every issued receipt reconciled or held as the
 * evidence of the run's review case, no run left running.
 */
final class ContentionCampaign {
  private ContentionCampaign() {}

  static int workers(Mode mode, Random rnd) {
    return mode == Mode.SMOKE ? 3 : 4 + rnd.nextInt(5);
  }

  static int runs(Mode mode, boolean fault) {
    if (fault) {
      return mode == Mode.SMOKE ? 12 : 100;
    }
    return mode == Mode.SMOKE ? 30 : 1_000;
  }

  static TrialResult trial(long seed, Mode mode, boolean canary, Path work) throws Exception {
    return trial(seed, mode, canary, work, false);
  }

  static TrialResult faultTrial(long seed, Mode mode, boolean canary, Path work) throws Exception {
    return trial(seed, mode, canary, work, true);
  }

  private static TrialResult trial(long seed, Mode mode, boolean canary, Path work, boolean fault)
      throws Exception {
    Random rnd = new Random(seed);
    Tally t = new Tally();
    ThrowawayPostgres cluster = null;
    String url = PgServer.SHARED_URL;
    if (fault) {
      Optional<Path> bin = ThrowawayPostgres.binaries();
      if (bin.isEmpty()) {
        throw new IllegalStateException("no PostgreSQL server binaries (initdb, pg_ctl) here");
      }
      cluster = ThrowawayPostgres.start(bin.get());
      url = cluster.url();
    }
    String schema = null;
    Map<String, ReferenceService> services = new LinkedHashMap<>();
    List<ChildJvm> live = new ArrayList<>();
    try {
      schema = PgServer.createSchema(url);
      int n = workers(mode, rnd);
      int r = runs(mode, fault);
      t.add("workers", n);
      Path runsFile = work.resolve("runs.txt");
      StringBuilder lines = new StringBuilder();
      List<RunVerdict.RunSpec> specs = new ArrayList<>();
      for (int i = 0; i < r; i++) {
        String id = "ledger-" + i;
        ReferenceService s = ChaosLedger.start(work.resolve(id + ".db"));
        services.put(id, s);
        specs.add(new RunVerdict.RunSpec(id, ChaosTasks.Kind.LEDGER, s.uri().toString()));
        lines.append(id).append(' ').append(s.uri()).append('\n');
      }
      Files.writeString(runsFile, lines);
      Path log = work.resolve("workers.log");
      long deadlineMs = mode == Mode.SMOKE ? 60_000 : 1_800_000;
      int[] incarnation = {0};
      // Seeded per worker: lease 200-500 ms, 0-25 % stalls, 1-4 steps per visit.
      java.util.function.Supplier<List<String>> nextArgs =
          () -> {
            int inc = incarnation[0]++;
            long ttl = 200 + rnd.nextInt(301);
            int stall = rnd.nextInt(26);
            return List.of(
                Long.toString(seed),
                Long.toString(seed * 1_000_003L + inc),
                "worker-" + inc,
                "URL",
                "SCHEMA",
                Long.toString(ttl),
                Integer.toString(stall),
                Long.toString(deadlineMs),
                Integer.toString(1 + rnd.nextInt(4)),
                Boolean.toString(canary),
                runsFile.toString());
          };
      String u = url;
      String sc = schema;
      java.util.function.Function<List<String>, List<String>> bind =
          a -> a.stream().map(x -> x.equals("URL") ? u : x.equals("SCHEMA") ? sc : x).toList();
      for (int w = 0; w < n; w++) {
        live.add(WorkerJvm.start(log, ContentionWorker.class, bind.apply(nextArgs.get())));
      }
      // Seeded fault schedule by progress, not by the clock (a fast machine would finish first):
      // each event fires once this many runs have been seen to end, between 5 % and 90 % of them.
      int kills = mode == Mode.SMOKE ? 2 : 8;
      List<long[]> events = new ArrayList<>(); // {runs ended, kind 0 = kill, 1 = db restart}
      for (int k = 0; k < kills; k++) {
        events.add(new long[] {progressPoint(r, rnd), 0});
      }
      if (fault) {
        int restarts = mode == Mode.SMOKE ? 1 : 3;
        for (int k = 0; k < restarts; k++) {
          events.add(new long[] {progressPoint(r, rnd), 1});
        }
      }
      events.sort((a, b) -> Long.compare(a[0], b[0]));
      Map<String, Long> highest = new HashMap<>();
      java.util.Set<String> ended = new java.util.HashSet<>();
      Map<String, CommitClaims> claims = new HashMap<>();
      java.util.Set<String> endedLive = new java.util.HashSet<>();
      long started = System.nanoTime();
      try (JdbcStore supervisor =
          JdbcStore.open(PgServer.as(url, schema, PgServer.OWNER, 2), PgServer.options())) {
        int next = 0;
        long lastPoll = 0;
        while (live.stream().anyMatch(w -> !w.ended())) {
          long now = (System.nanoTime() - started) / 1_000_000;
          if (now > deadlineMs + 30_000) {
            t.fail("workers still running after " + now + " ms");
            break;
          }
          while (next < events.size() && events.get(next)[0] <= endedLive.size()) {
            long[] ev = events.get(next++);
            if (ev[1] == 0) {
              List<ChildJvm> running = live.stream().filter(w -> !w.ended()).toList();
              if (running.isEmpty()) {
                t.inc("finished_before_kill");
                continue;
              }
              ChildJvm victim = running.get(rnd.nextInt(running.size()));
              victim.kill();
              t.inc("kills_sigkill");
              tallyAndForget(victim, t, ended, claims);
              live.remove(victim);
              live.add(WorkerJvm.start(log, ContentionWorker.class, bind.apply(nextArgs.get())));
            } else {
              cluster.stopImmediately();
              LockSupport.parkNanos((300 + rnd.nextInt(1_500)) * 1_000_000L);
              cluster.start();
              t.inc("db_restarts");
            }
          }
          if (now - lastPoll > (mode == Mode.SMOKE ? 300 : 3_000)) {
            lastPoll = now;
            pollGenerations(supervisor, specs, highest, t);
          }
          for (ChildJvm w : live) {
            String line;
            while ((line = w.next(0)) != null) {
              // lines are kept in seen(); the ends seen so far drive the fault schedule
              if (line.startsWith("END ")) {
                endedLive.add(line.split(" ")[1]);
              }
            }
          }
          LockSupport.parkNanos(50_000_000L);
        }
        for (ChildJvm w : live) {
          w.kill();
          tallyAndForget(w, t, ended, claims);
        }
        live.clear();
        t.add("contention_ms", (System.nanoTime() - started) / 1_000_000);
        t.add("faults_not_fired", events.size() - next); // the workers ended first
        pollGenerations(supervisor, specs, highest, t);
        // The drain: one worker, long lease, no stalls, drives each run no worker saw end.
        StringBuilder left = new StringBuilder();
        for (RunVerdict.RunSpec spec : specs) {
          if (!ended.contains(spec.id())) {
            left.append(spec.id()).append(' ').append(spec.target()).append('\n');
            t.inc("drained_runs");
          }
        }
        if (left.length() > 0) {
          Path drainFile = work.resolve("drain.txt");
          Files.writeString(drainFile, left);
          List<String> drainArgs = new ArrayList<>(bind.apply(nextArgs.get()));
          drainArgs.set(2, "drain");
          drainArgs.set(5, "60000");
          drainArgs.set(6, "0");
          drainArgs.set(8, "0");
          drainArgs.set(10, drainFile.toString());
          ChildJvm drain = WorkerJvm.start(log, ContentionWorker.class, drainArgs);
          if (!drain.awaitExit(deadlineMs + 60_000)) {
            drain.kill();
            t.fail("the drain worker did not finish");
          }
          tallyAndForget(drain, t, ended, claims);
          if (!drain.seen().contains("IDLE")) {
            t.fail("the drain worker did not reach IDLE: " + tail(drain.seen()) + tail(log));
          }
        }
        pollGenerations(supervisor, specs, highest, t);
        t.add("wall_ms", (System.nanoTime() - started) / 1_000_000);
        for (ReferenceService s : services.values()) {
          s.close();
        }
        services.clear();
        judgeRaces(claims, t);
        for (RunVerdict.RunSpec spec : specs) {
          RunVerdict.judge(seed, supervisor, spec, work.resolve(spec.id() + ".db"), t);
        }
      }
    } finally {
      for (ChildJvm w : live) {
        w.kill();
      }
      for (ReferenceService s : services.values()) {
        s.close();
      }
      if (schema != null && cluster == null) {
        PgServer.dropSchema(url, schema);
      }
      if (cluster != null) {
        cluster.close();
      }
    }
    return t.result(seed);
  }

  private static void pollGenerations(
      JdbcStore store, List<RunVerdict.RunSpec> specs, Map<String, Long> highest, Tally t) {
    for (RunVerdict.RunSpec r : specs) {
      long g;
      try {
        g =
            store
                .load(ChaosTasks.task(r.kind()).taskId(), r.id())
                .map(dev.ratchet.store.StoredRun::generation)
                .orElse(0L);
      } catch (RatchetException e) {
        if (e.code() == dev.ratchet.error.ErrorCode.STORE_UNAVAILABLE) {
          t.inc("polls_while_db_down");
          return;
        }
        t.fail(r.id() + ": the store refused a load: " + e);
        return;
      }
      long before = highest.getOrDefault(r.id(), 0L);
      if (g < before) {
        t.inc("generation_regressions");
        t.fail(r.id() + ": generation went back from " + before + " to " + g);
      }
      highest.put(r.id(), Math.max(before, g));
    }
    t.inc("generation_polls");
  }

  /** A number of ended runs between 5 % and 90 % of {@code runs}. */
  private static long progressPoint(int runs, Random rnd) {
    int from = Math.max(1, runs / 20);
    int to = Math.max(from + 1, runs * 9 / 10);
    return from + rnd.nextInt(to - from);
  }

  /** A run committed to by more than one worker was a race; it must have had one winner each. */
  static void judgeRaces(Map<String, CommitClaims> claims, Tally t) {
    for (CommitClaims run : claims.values()) {
      if (run.raced()) {
        t.inc("races");
        if (run.oneWinnerEach()) {
          t.inc("races_one_winner");
        }
      }
    }
  }

  private static void tallyAndForget(
      ChildJvm w, Tally t, java.util.Set<String> ended, Map<String, CommitClaims> claims) {
    tally(w.seen(), t, ended, claims, p -> p[1]);
  }

  /**
   * Counts a worker's lines; {@code claimsOf} names the claims a {@code STEP} line's generation
   * belongs to (the run; the failover campaign adds the primary that acknowledged it).
   */
  static void tally(
      List<String> lines,
      Tally t,
      java.util.Set<String> ended,
      Map<String, CommitClaims> claims,
      java.util.function.Function<String[], String> claimsOf) {
    for (String l : lines) {
      String[] p = l.split(" ");
      String kind = p[0];
      if (kind.equals("END")) {
        ended.add(p[1]);
      }
      if (kind.equals("STEP") && p.length >= 4) {
        String earlier =
            claims
                .computeIfAbsent(claimsOf.apply(p), k -> new CommitClaims())
                .claim(Long.parseLong(p[2]), p[3], p[3]);
        if (earlier != null) {
          t.inc("double_claims");
          t.fail(p[1] + ": generation " + p[2] + " committed by " + earlier + " and " + p[3]);
        }
      }
      switch (kind) {
        case "STEP" -> t.inc("steps");
        case "STALL" -> t.inc("stalls");
        case "RECOVERED" -> t.inc("recovered." + l.substring(l.lastIndexOf(' ') + 1));
        case "RETRY" ->
            t.inc(
                "retries."
                    + l.substring(l.lastIndexOf(' ') + 1).toLowerCase(java.util.Locale.ROOT));
        case "END" -> t.inc("ends_seen");
        case "ERROR" -> {
          t.inc("worker_errors");
          t.fail("worker error: " + l);
        }
        case "DEADLINE" -> t.fail("a worker hit its deadline: " + l);
        default -> {
          // IDLE
        }
      }
    }
  }

  private static String tail(List<String> lines) {
    return String.join(" / ", lines.subList(Math.max(0, lines.size() - 8), lines.size()));
  }

  private static String tail(Path log) {
    try {
      List<String> l = Files.readAllLines(log);
      return " | log: " + tail(l);
    } catch (java.io.IOException e) {
      return "";
    }
  }
}
