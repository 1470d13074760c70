package dev.ratchet.chaos;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The worker-scaling bench (issue 17 item 7): on one PostgreSQL server, N short runs enqueued with
 * {@code submit} (signed by an operator), then driven by 1, 2 and 4 {@code ratchet worker} JVMs
 * (one run at a time each); runs/s and steps/s per worker count from the workers' own claim and
 * outcome lines; then the claim latency after a worker is SIGKILLed: from the kill until each run
 * it held is claimed by another worker, on short leases. Prints a Markdown table with the load
 * average at each phase.
 *
 * <pre>FleetBench --smoke|--full [--runs N] [--kills K] [--workers 1,2,4] [--work DIR] [--out FILE]
 * </pre>
 *
 * <p>{@code --workers} chooses the throughput phases (none: {@code --workers 0}, the takeover
 * alone); {@code --kills 0} skips the takeover phase.
 */
public final class FleetBench {
  /** One measured phase. */
  record Phase(int workers, int runs, double seconds, String loadBefore, String loadAfter) {
    double runsPerSecond() {
      return runs / seconds;
    }
  }

  /** The latencies of the kill phase, in milliseconds, one per stranded run. */
  record Takeover(
      List<Long> millis, int kills, List<Integer> backlog, Duration lease, Duration poll) {}

  /** What a bench produced. */
  record Result(List<Phase> phases, Takeover takeover, String table) {}

  static final Duration LEASE = Duration.ofSeconds(10);
  static final Duration KILL_LEASE = Duration.ofSeconds(2);
  static final Duration POLL = Duration.ofMillis(100);

  /** Task files per {@code ratchet submit} when enqueueing. */
  static final int SUBMIT_BATCH = 50;

  private FleetBench() {}

  public static void main(String[] argv) throws Exception {
    boolean full = false;
    int runs = -1;
    int kills = -1;
    Path work = null;
    Path out = null;
    List<Integer> workers = List.of(1, 2, 4);
    for (int i = 0; i < argv.length; i++) {
      switch (argv[i]) {
        case "--full" -> full = true;
        case "--smoke" -> full = false;
        case "--runs" -> runs = Integer.parseInt(argv[++i]);
        case "--kills" -> kills = Integer.parseInt(argv[++i]);
        case "--workers" -> workers = workerCounts(argv[++i]);
        case "--work" -> work = Path.of(argv[++i]);
        case "--out" -> out = Path.of(argv[++i]);
        default -> throw new IllegalArgumentException("unknown argument: " + argv[i]);
      }
    }
    work = work != null ? work : Files.createTempDirectory("ratchet-fleet-bench");
    String table =
        run(work, runs > 0 ? runs : full ? 1000 : 30, kills >= 0 ? kills : full ? 8 : 1, workers)
            .table();
    System.out.println(table);
    if (out != null) {
      Files.writeString(out, table);
    }
  }

  /** Every phase; the table. */
  static Result run(Path work, int runs, int kills) throws Exception {
    return run(work, runs, kills, List.of(1, 2, 4));
  }

  /** The throughput phases of {@code workers} (empty: none), then the takeover unless 0 kills. */
  static Result run(Path work, int runs, int kills, List<Integer> workers) throws Exception {
    List<Phase> phases = new ArrayList<>();
    for (int w : workers) {
      phases.add(throughput(work.resolve("w" + w), w, runs));
      System.out.println(FleetReport.phaseLine(phases.get(phases.size() - 1)));
    }
    Takeover t =
        kills == 0 ? null : takeover(work.resolve("kills"), kills, Math.max(20, kills * 12));
    return new Result(phases, t, FleetReport.table(phases, t));
  }

  private static List<Integer> workerCounts(String csv) {
    List<Integer> out = new ArrayList<>();
    for (String w : csv.split(",")) {
      int n = Integer.parseInt(w.trim());
      if (n < 0 || n > 16) {
        throw new IllegalArgumentException("--workers: each count must be 0..16, not " + n);
      }
      if (n > 0) {
        out.add(n);
      }
    }
    return out;
  }

  /** Enqueues {@code runs} short runs, then times {@code workers} workers draining them. */
  static Phase throughput(Path dir, int workers, int runs) throws Exception {
    try (Fleet f = Fleet.create(dir, LEASE, POLL)) {
      Set<String> ids = enqueue(f, dir, runs);
      String before = FleetReport.loadAverage();
      for (int i = 1; i <= workers; i++) {
        f.start("w" + i, 1);
      }
      if (!f.awaitEnded(ids, Duration.ofMinutes(10).toMillis())) {
        throw new IllegalStateException("runs did not all end; see " + f.log);
      }
      requireCompleted(f, ids);
      String after = FleetReport.loadAverage();
      long first = Long.MAX_VALUE;
      long last = Long.MIN_VALUE;
      for (Fleet.Event e : f.events()) {
        if (e.kind() == Fleet.Kind.CLAIMED) {
          first = Math.min(first, e.nanos());
        } else if (e.kind() == Fleet.Kind.ENDED) {
          last = Math.max(last, e.nanos());
        }
      }
      return new Phase(workers, runs, (last - first) / 1e9, before, after);
    }
  }

  /**
   * Four workers, two runs each at a time, on {@link #KILL_LEASE} leases; {@code kills} times a
   * busy worker is SIGKILLed and replaced; each run it held is timed until another claims it.
   */
  static Takeover takeover(Path dir, int kills, int runs) throws Exception {
    List<Long> millis = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(17);
    try (Fleet f = Fleet.create(dir, KILL_LEASE, POLL)) {
      Set<String> ids = enqueue(f, dir, runs);
      for (int i = 1; i <= 4; i++) {
        f.start("w" + i, 2);
      }
      List<Fleet.Kill> done = new ArrayList<>();
      for (int k = 0; k < kills; k++) {
        Fleet.Kill kill = f.killBusy(random, 2, 60_000);
        if (kill == null) {
          break;
        }
        done.add(kill);
        Thread.sleep(KILL_LEASE.toMillis() + 1_000); // let its leases lapse before the next kill
      }
      if (!f.awaitEnded(ids, Duration.ofMinutes(10).toMillis())) {
        throw new IllegalStateException("runs did not all end after the kills; see " + f.log);
      }
      requireCompleted(f, ids);
      List<Integer> backlog = new ArrayList<>();
      for (Fleet.Kill kill : done) {
        backlog.add(ids.size() - f.claimedBefore(kill.nanos()));
        for (String run : kill.runs()) {
          long again = f.claimedAgain(run, kill.worker(), kill.nanos());
          if (again < 0) {
            throw new IllegalStateException("run " + run + " ended but was never claimed again");
          }
          millis.add((again - kill.nanos()) / 1_000_000);
        }
      }
      return new Takeover(millis, done.size(), backlog, KILL_LEASE, POLL);
    }
  }

  /** Every run completed: a rate of runs that end failed is not the rate of the runs measured. */
  private static void requireCompleted(Fleet f, Set<String> ids) {
    List<String> bad = f.notCompleted(ids);
    if (!bad.isEmpty()) {
      throw new IllegalStateException(
          bad.size() + " of " + ids.size() + " runs did not complete, e.g. " + bad.get(0));
    }
  }

  /**
   * Writes and enqueues {@code runs} short runs through two CLI children at once, {@link
   * #SUBMIT_BATCH} task files per {@code submit} (each command opens its own session; two share the
   * machine better than one); returns their ids.
   */
  static Set<String> enqueue(Fleet f, Path dir, int runs) throws Exception {
    List<String> ids = new ArrayList<>();
    for (int i = 1; i <= runs; i++) {
      ids.add(String.format(Locale.ROOT, "r%04d", i));
    }
    long t0 = System.nanoTime();
    List<Callable<Void>> halves = new ArrayList<>();
    for (int half = 0; half < 2; half++) {
      List<String> mine = ids.subList(half * runs / 2, (half + 1) * runs / 2);
      halves.add(
          () -> {
            try (FleetCli cli = f.cli()) {
              // One submit of up to SUBMIT_BATCH task files per session (issue 38).
              for (int from = 0; from < mine.size(); from += SUBMIT_BATCH) {
                List<String> batch = mine.subList(from, Math.min(mine.size(), from + SUBMIT_BATCH));
                List<Path> tasks = new ArrayList<>();
                for (String id : batch) {
                  tasks.add(FleetTasks.shortRun(dir, id));
                }
                cli.ok(f.enqueueArgs(tasks, batch));
              }
            }
            return null;
          });
    }
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (Future<Void> done : pool.invokeAll(halves)) {
        done.get();
      }
    } finally {
      pool.shutdownNow();
    }
    System.out.printf(
        Locale.ROOT, "enqueued %d runs in %.1f s%n", runs, (System.nanoTime() - t0) / 1e9);
    return new LinkedHashSet<>(ids);
  }
}
