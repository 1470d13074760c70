package dev.ratchet.chaos;

import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.store.StoredRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The supervisor of one batch of crash trials: keeps two worker JVMs alive, dispatches runs to them
 * (a racing run to both), reads their events off one queue, SIGKILLs a worker when a run's plan
 * says so (parked in its crash window, or after some steps at an arbitrary instant), replaces it
 * and hands its runs to the replacement, and judges each run once no worker drives it any more.
 */
final class CrashBatch {
  private static final int WORKERS = 2;
  private static final int RUNS_PER_WORKER = 4;
  private static final long TRIAL_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(150);

  private final Path dir;
  private final BatchStores stores;
  private final boolean canary;
  private final Consumer<TrialResult> done;
  private final BlockingQueue<LiveWorker.Event> events = new LinkedBlockingQueue<>();
  private final LiveWorker[] workers = new LiveWorker[WORKERS];
  private final Map<Long, CrashTrial> inFlight = new LinkedHashMap<>();
  private int incarnations;

  CrashBatch(Path dir, BatchStores stores, boolean canary, Consumer<TrialResult> done) {
    this.dir = dir;
    this.stores = stores;
    this.canary = canary;
    this.done = done;
  }

  void run(List<Long> seeds) throws Exception {
    Deque<Long> pending = new ArrayDeque<>(seeds);
    try {
      for (int s = 0; s < WORKERS; s++) {
        workers[s] = startWorker(s);
      }
      while (!pending.isEmpty() || !inFlight.isEmpty()) {
        dispatch(pending);
        LiveWorker.Event e = events.poll(500, TimeUnit.MILLISECONDS);
        if (e != null) {
          handle(e);
        }
        timeOutStuckTrials();
      }
    } finally {
      for (LiveWorker w : workers) {
        if (w != null && !w.finish(10_000)) {
          w.kill();
        }
      }
      for (CrashTrial t : inFlight.values()) {
        closeService(t);
      }
    }
  }

  private LiveWorker startWorker(int slot) throws IOException {
    int incarnation = ++incarnations;
    return LiveWorker.start(
        dir.resolve("workers.log"),
        slot,
        incarnation,
        List.of("worker-" + slot + "." + incarnation, dir.toString(), Boolean.toString(canary)),
        events);
  }

  private int load(int slot) {
    int n = 0;
    for (CrashTrial t : inFlight.values()) {
      n += t.active.contains(slot) ? 1 : 0;
    }
    return n;
  }

  private void dispatch(Deque<Long> pending) throws IOException {
    while (!pending.isEmpty()) {
      CrashPlan plan = CrashPlan.of(pending.peek(), canary);
      int a = load(0);
      int b = load(1);
      List<Integer> slots;
      if (plan.workers() == 2) {
        if (a >= RUNS_PER_WORKER || b >= RUNS_PER_WORKER) {
          return;
        }
        slots = List.of(0, 1);
      } else if (Math.min(a, b) < RUNS_PER_WORKER) {
        slots = List.of(a <= b ? 0 : 1);
      } else {
        return;
      }
      pending.poll();
      CrashTrial t = open(plan);
      inFlight.put(plan.seed(), t);
      for (int slot : slots) {
        t.active.add(slot);
        boolean arm = plan.fault() == CrashPlan.Fault.SEAM && slot == slots.get(0);
        workers[slot].send("RUN " + plan.seed() + " " + t.spec.target() + " " + (arm ? 1 : 0));
      }
      if (t.killDue()) {
        killAfterDelay(slots.get(0), t);
      }
    }
  }

  private CrashTrial open(CrashPlan plan) throws IOException {
    String id = CrashWorker.runId(plan.seed());
    if (plan.kind() == ChaosTasks.Kind.LEDGER) {
      Path db = dir.resolve(id + ".ledger.db");
      ReferenceService s = ChaosLedger.start(db);
      return new CrashTrial(
          plan,
          new RunVerdict.RunSpec(id, plan.kind(), s.uri().toString(), plan.approvals()),
          db,
          s);
    }
    Path ws = Files.createDirectories(dir.resolve(id + ".ws"));
    return new CrashTrial(
        plan, new RunVerdict.RunSpec(id, plan.kind(), ws.toString(), plan.approvals()), null, null);
  }

  private void handle(LiveWorker.Event e) throws Exception {
    LiveWorker current = workers[e.slot()];
    boolean live = current != null && current.incarnation() == e.incarnation();
    if (e.line() == null) {
      if (live && !current.killed()) {
        // The worker died without being told to: its runs are crashed too, and noted.
        for (CrashTrial t : inFlight.values()) {
          if (t.active.contains(e.slot())) {
            t.tally.fail("worker " + e.slot() + "." + e.incarnation() + " died on its own");
          }
        }
        replace(e.slot(), null, "died");
      }
      return;
    }
    String[] p = e.line().split(" ", 4);
    if (p.length < 2 || !p[1].chars().allMatch(Character::isDigit)) {
      return; // READY, or a line without a trial
    }
    CrashTrial t = inFlight.get(Long.parseLong(p[1]));
    if (t == null) {
      return;
    }
    switch (p[0]) {
      case "STEP" -> {
        boolean primary = e.slot() == firstSlot(t);
        // Steps a killed incarnation printed before it died are real commits: claims count.
        if (t.step(e.slot(), e.incarnation(), Long.parseLong(p[2]), primary) && live) {
          killAfterDelay(e.slot(), t);
        }
      }
      case "SEAM" -> {
        if (live) {
          t.tally.inc("kills_seam");
          t.tally.inc("seam." + p[2].toLowerCase(Locale.ROOT));
          replace(e.slot(), t, "seam");
        }
      }
      case "RETRY" -> t.tally.inc("retries." + p[2].toLowerCase(Locale.ROOT));
      case "STALL" -> t.tally.inc("stalls");
      case "RECOVERED" -> t.tally.inc("recovered." + p[2]);
      case "END", "ERROR", "GAVEUP" -> {
        if (!live) {
          return; // its replacement drives the run now and will report its own end
        }
        if (!p[0].equals("END")) {
          t.tally.fail("worker " + e.slot() + ": " + e.line());
        }
        t.active.remove(e.slot());
        if (t.active.isEmpty()) {
          finish(t);
        }
      }
      default -> {}
    }
  }

  private static int firstSlot(CrashTrial t) {
    return t.active.stream().mapToInt(Integer::intValue).min().orElse(-1);
  }

  private void killAfterDelay(int slot, CrashTrial cause) throws IOException {
    LockSupport.parkNanos(cause.plan.delayMicros() * 1_000L);
    cause.tally.inc("kills_sigkill");
    replace(slot, cause, "sigkill");
  }

  /**
   * SIGKILLs the worker in {@code slot} (unless it is already dead), checks that no generation of
   * its runs went back, and hands those runs to a fresh worker, unarmed.
   */
  private void replace(int slot, CrashTrial cause, String how) throws IOException {
    workers[slot].kill();
    List<CrashTrial> crashed = new ArrayList<>();
    for (CrashTrial t : inFlight.values()) {
      if (t.active.contains(slot)) {
        crashed.add(t);
        t.tally.inc(t == cause ? "crashes_planned" : "crashes_collateral");
        t.checkGeneration(generation(t), "after a " + how + " of worker " + slot);
      }
    }
    workers[slot] = startWorker(slot);
    for (CrashTrial t : crashed) {
      workers[slot].send("RUN " + t.seed() + " " + t.spec.target() + " 0");
    }
  }

  private long generation(CrashTrial t) {
    return stores
        .of(t.plan)
        .load(t.spec.task().taskId(), t.spec.id())
        .map(StoredRun::generation)
        .orElse(0L);
  }

  private void timeOutStuckTrials() throws Exception {
    long now = System.nanoTime();
    for (CrashTrial t : List.copyOf(inFlight.values())) {
      if (now - t.startedNanos > TRIAL_TIMEOUT_NANOS) {
        t.tally.fail("no end within " + TimeUnit.NANOSECONDS.toSeconds(TRIAL_TIMEOUT_NANOS) + " s");
        for (int slot : List.copyOf(t.active)) {
          replace(slot, null, "timeout");
        }
        t.active.clear();
        finish(t);
      }
    }
  }

  private void finish(CrashTrial t) throws Exception {
    inFlight.remove(t.seed());
    closeService(t);
    JdbcStore store = stores.of(t.plan);
    try {
      t.checkGeneration(generation(t), "at the end");
      t.judgeRace();
      if (t.plan.fault() == CrashPlan.Fault.SEAM && t.tally.get("kills_seam") == 0) {
        t.tally.inc("seam_not_reached"); // a kill for another run's sake came first
      }
      if (t.plan.fault() == CrashPlan.Fault.SIGKILL && t.tally.get("kills_sigkill") == 0) {
        t.tally.inc("sigkill_not_fired"); // the run ended, or was crashed, before its step count
      }
      RunVerdict.judge(t.seed(), store, t.spec, t.ledgerDb, t.tally);
    } catch (RuntimeException e) {
      t.tally.fail("judging the run failed: " + e);
    }
    done.accept(t.tally.result(t.seed()));
  }

  private static void closeService(CrashTrial t) {
    if (t.service != null) {
      t.service.close();
    }
  }
}
