package dev.ratchet.chaos;

import dev.ratchet.harness.ChildJvm;
import dev.ratchet.ops.Home;
import dev.ratchet.ops.KeyConfig;
import dev.ratchet.ops.KeyFiles;
import dev.ratchet.seam.Entropy;
import dev.ratchet.seam.Seams;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fleet of real {@code ratchet worker} processes ({@code dev.ratchet.cli.Main worker}, each its
 * own JVM) on one fresh PostgreSQL schema ({@link PgServer}) and one Ratchet home, as an operator
 * would run them: workers connect as the worker role, runs are enqueued with {@code submit} (signed
 * by an operator) as the owner. The supervisor reads each worker's log lines (claim, outcome,
 * release), stamps them with its own clock, and can SIGKILL and restart workers. Nothing here
 * reaches into the worker: only its command line, its environment and its stderr.
 */
final class Fleet implements AutoCloseable {
  static final List<String> JVM_OPTIONS =
      List.of(
          "-XX:TieredStopAtLevel=1",
          "-XX:+UseSerialGC",
          "-XX:-UsePerfData",
          "-Xshare:auto",
          "-Xmx192m",
          "-Dslf4j.internal.verbosity=ERROR");

  /** What a worker's log line says happened to a run. */
  enum Kind {
    CLAIMED,
    ENDED,
    WAITING,
    YIELDED,
    RELEASED,
    FAILED
  }

  /** One parsed worker log line, stamped when the supervisor read it. */
  record Event(long nanos, String worker, Kind kind, String runId, String line) {}

  private static final Pattern CLAIMED = Pattern.compile("^worker (\\S+) claimed run (\\S+) ");
  private static final Pattern OUTCOME =
      Pattern.compile("^worker (\\S+) run (\\S+): (ended|waiting|yielded) ");
  private static final Pattern RELEASED = Pattern.compile("^worker (\\S+) released run (\\S+)$");
  private static final Pattern FAILED = Pattern.compile("^worker (\\S+) run (\\S+): [A-Z_]+: ");

  final String url;
  private static final String OPERATOR = "fleet-operator";
  final String schema;
  final Path home;
  final Path log;
  private final Duration lease;
  private final Duration poll;
  private final Map<String, Process> workers = new LinkedHashMap<>();
  private final List<Event> events = new ArrayList<>();
  private final Map<String, Set<String>> inFlight = new HashMap<>();

  /** Each ended run's end line, as its worker printed it. */
  private final Map<String, String> endLines = new HashMap<>();

  private int incarnations;

  private Fleet(String url, String schema, Path work, Duration lease, Duration poll) {
    this.url = url;
    this.schema = schema;
    this.home = work.resolve("home");
    this.log = work.resolve("workers.log");
    this.lease = lease;
    this.poll = poll;
  }

  /** A fresh schema on the shared server and a Ratchet home with a checkpoint key. */
  static Fleet create(Path work, Duration lease, Duration poll) throws Exception {
    Files.createDirectories(work);
    String schema = PgServer.createSchema(PgServer.SHARED_URL);
    Fleet f = new Fleet(PgServer.SHARED_URL, schema, work, lease, poll);
    // The code behind 'ratchet keys generate' and 'keys trust' (ratchet-ops), no JVM for each.
    Home home = new Home(f.home);
    Entropy entropy = Seams.secureEntropy();
    KeyFiles.create(home.keys().resolve("ckpt-1" + KeyConfig.SUFFIX), entropy);
    KeyFiles.activate(home.keys(), "ckpt-1");
    // Runs reach workers as tasks signed by an operator (ratchet submit, D24).
    KeyConfig.install(
        home.operators(), KeyConfig.createIdentity(f.operatorKey(), OPERATOR, entropy).trusted());
    return f;
  }

  /** The owner's login: migrations are done; {@code submit} and {@code status}. */
  Map<String, String> ownerEnv() {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("RATCHET_PG_USER", PgServer.OWNER);
    env.put("RATCHET_PG_PASSWORD", PgServer.PASSWORD);
    env.put("RATCHET_PG_SCHEMA", schema);
    return env;
  }

  /** {@code submit TASK --run-id ID}, signed by the fleet's operator, on this home and store. */
  String[] enqueueArgs(Path task, String runId) {
    return enqueueArgs(List.of(task), List.of(runId));
  }

  /** One {@code submit} of several task files, each with its run id, in one session. */
  String[] enqueueArgs(List<Path> tasks, List<String> runIds) {
    List<String> args = new ArrayList<>();
    args.add("submit");
    for (int i = 0; i < tasks.size(); i++) {
      args.add(tasks.get(i).toString());
      args.add("--run-id");
      args.add(runIds.get(i));
    }
    args.addAll(
        List.of(
            "--operator-key", operatorKey().toString(), "--home", home.toString(), "--store", url));
    return args.toArray(String[]::new);
  }

  private Path operatorKey() {
    return home.resolve("identities/operator/" + OPERATOR + ".key");
  }

  FleetCli cli() throws IOException {
    return FleetCli.start(ownerEnv());
  }

  /** The class path of this JVM: it holds the CLI and its drivers. */
  static String classpath() {
    return System.getProperty("java.class.path");
  }

  synchronized List<Event> events() {
    return List.copyOf(events);
  }

  /** Starts {@code ratchet worker --worker-id id} as the worker role (D21). */
  synchronized void start(String id, int concurrency) throws IOException {
    List<String> args =
        List.of(
            "worker",
            "--worker-id",
            id,
            "--concurrency",
            Integer.toString(concurrency),
            "--lease-ttl",
            lease.toMillis() + "ms",
            "--poll",
            poll.toMillis() + "ms",
            "--home",
            home.toString(),
            "--store",
            url);
    ProcessBuilder pb =
        new ProcessBuilder(ChildJvm.command(JVM_OPTIONS, classpath(), "dev.ratchet.cli.Main", args))
            .redirectErrorStream(true);
    pb.environment().keySet().removeIf(k -> k.startsWith("RATCHET_"));
    pb.environment().putAll(ownerEnv());
    pb.environment().put("RATCHET_PG_WORKER_USER", PgServer.WORKER);
    pb.environment().put("RATCHET_PG_WORKER_PASSWORD", PgServer.PASSWORD);
    Process p = pb.start();
    workers.put(id, p);
    ChildJvm.readLines(p, "fleet-" + id, line -> read(id, line));
  }

  /** SIGKILLs worker {@code id}; returns the supervisor's clock at the kill. */
  long kill(String id) throws InterruptedException {
    Process p;
    synchronized (this) {
      p = workers.remove(id);
    }
    long at = System.nanoTime();
    p.toHandle().destroyForcibly();
    p.waitFor(30, TimeUnit.SECONDS);
    return at;
  }

  synchronized List<String> alive() {
    return List.copyOf(workers.keySet());
  }

  private void read(String worker, String line) {
    if (line == null) {
      return;
    }
    long now = System.nanoTime();
    Event e = parse(now, worker, line);
    synchronized (this) {
      if (e != null) {
        events.add(e);
        track(e);
      }
    }
    try {
      Files.writeString(
          log,
          worker + "\t" + line + "\n",
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  private void track(Event e) {
    Set<String> held = inFlight.computeIfAbsent(e.worker(), k -> new HashSet<>());
    switch (e.kind()) {
      case CLAIMED -> held.add(e.runId());
      case RELEASED -> held.remove(e.runId());
      case ENDED -> endLines.put(e.runId(), e.line());
      default -> {
        // waiting, yielded, a refusal: the release line follows
      }
    }
    notifyAll();
  }

  /** A SIGKILL of a worker that held runs, and those runs (as its claim lines showed them). */
  record Kill(long nanos, String worker, Set<String> runs, String replacement) {}

  /**
   * Waits until some worker holds a run, SIGKILLs it (the whole JVM, mid-step wherever it is) and
   * at once starts a replacement with a new id: the restart is the supervisor's, no command is
   * typed. Null if no worker held a run within {@code timeoutMs}.
   */
  Kill killBusy(java.util.random.RandomGenerator random, int concurrency, long timeoutMs)
      throws InterruptedException, IOException {
    String victim;
    Set<String> runs;
    long until = System.currentTimeMillis() + timeoutMs;
    synchronized (this) {
      List<String> busy = busy();
      while (busy.isEmpty() && System.currentTimeMillis() < until) {
        wait(50);
        busy = busy();
      }
      if (busy.isEmpty()) {
        return null;
      }
      victim = busy.get(random.nextInt(busy.size()));
    }
    long at = kill(victim);
    synchronized (this) {
      runs = Set.copyOf(inFlight.getOrDefault(victim, Set.of()));
      inFlight.remove(victim);
    }
    String next = "w" + (++incarnations + 100);
    start(next, concurrency);
    return new Kill(at, victim, runs, next);
  }

  private List<String> busy() {
    List<String> out = new ArrayList<>();
    for (String w : workers.keySet()) {
      if (!inFlight.getOrDefault(w, Set.of()).isEmpty()) {
        out.add(w);
      }
    }
    return out;
  }

  /**
   * The worker's end line of each run of {@code runs} that ended other than completed: a bench of
   * runs that all fail measures the wrong thing.
   */
  synchronized List<String> notCompleted(Set<String> runs) {
    List<String> out = new ArrayList<>();
    for (String run : runs) {
      String line = endLines.get(run);
      if (line != null && !line.contains("completed")) {
        out.add(line);
      }
    }
    return out;
  }

  /** Waits until every run of {@code runs} has ended; false at the timeout. */
  synchronized boolean awaitEnded(Set<String> runs, long timeoutMs) throws InterruptedException {
    long until = System.currentTimeMillis() + timeoutMs;
    while (!endLines.keySet().containsAll(runs)) {
      long left = until - System.currentTimeMillis();
      if (left <= 0) {
        return false;
      }
      wait(Math.min(left, 200));
    }
    return true;
  }

  /** How many distinct runs had been claimed before {@code nanos}. */
  synchronized int claimedBefore(long nanos) {
    Set<String> runs = new HashSet<>();
    for (Event e : events) {
      if (e.kind() == Kind.CLAIMED && e.nanos() < nanos) {
        runs.add(e.runId());
      }
    }
    return runs.size();
  }

  /** The first claim of {@code runId} by another worker after {@code nanos}, or -1. */
  synchronized long claimedAgain(String runId, String notBy, long nanos) {
    for (Event e : events) {
      if (e.kind() == Kind.CLAIMED
          && e.runId().equals(runId)
          && !e.worker().equals(notBy)
          && e.nanos() >= nanos) {
        return e.nanos();
      }
    }
    return -1;
  }

  static Event parse(long nanos, String worker, String line) {
    Matcher m;
    if ((m = CLAIMED.matcher(line)).find()) {
      return new Event(nanos, worker, Kind.CLAIMED, m.group(2), line);
    }
    if ((m = OUTCOME.matcher(line)).find()) {
      Kind k = Kind.valueOf(m.group(3).toUpperCase(java.util.Locale.ROOT));
      return new Event(nanos, worker, k, m.group(2), line);
    }
    if ((m = RELEASED.matcher(line)).find()) {
      return new Event(nanos, worker, Kind.RELEASED, m.group(2), line);
    }
    if ((m = FAILED.matcher(line)).find()) {
      return new Event(nanos, worker, Kind.FAILED, m.group(2), line);
    }
    return null;
  }

  /** SIGKILLs every worker left and drops the schema. */
  @Override
  public void close() {
    for (String id : alive()) {
      try {
        kill(id);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    PgServer.dropSchema(url, schema);
  }
}
