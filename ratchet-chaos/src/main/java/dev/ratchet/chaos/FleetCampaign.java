package dev.ratchet.chaos;

import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The worker-fleet chaos campaign (issue 17 item 7): runs enqueued with {@code submit} (signed by
 * an operator), each against a reference ledger service of its own (ratchet-harness), driven by
 * {@code ratchet worker} JVMs on short leases while the supervisor SIGKILLs busy workers at seeded
 * moments and restarts them itself — no command is typed after the enqueue. Verdict: every run ends
 * {@code completed} (as {@code ratchet status} says), each order is in its service's own ledger
 * exactly once, and every run a killed worker held was claimed again by another worker.
 *
 * <pre>FleetCampaign --smoke|--full [--seed S] [--runs R] [--kills K] [--work DIR]</pre>
 *
 * Exit 0 when the verdict holds, 1 otherwise.
 */
public final class FleetCampaign {
  /** What a campaign found; {@code failures} is empty when it passed. */
  record Outcome(int runs, int completed, List<Fleet.Kill> kills, List<String> failures) {
    boolean passed() {
      return failures.isEmpty();
    }

    int stranded() {
      return kills.stream().mapToInt(k -> k.runs().size()).sum();
    }
  }

  static final Duration LEASE = Duration.ofMillis(1500);
  static final Duration POLL = Duration.ofMillis(100);
  static final int WORKERS = 3;
  static final int CONCURRENCY = 2;

  private FleetCampaign() {}

  public static void main(String[] argv) throws Exception {
    boolean full = false;
    long seed = 0;
    int runs = -1;
    int kills = -1;
    Path work = null;
    for (int i = 0; i < argv.length; i++) {
      switch (argv[i]) {
        case "--full" -> full = true;
        case "--smoke" -> full = false;
        case "--seed" -> seed = Long.parseLong(argv[++i]);
        case "--runs" -> runs = Integer.parseInt(argv[++i]);
        case "--kills" -> kills = Integer.parseInt(argv[++i]);
        case "--work" -> work = Path.of(argv[++i]);
        default -> throw new IllegalArgumentException("unknown argument: " + argv[i]);
      }
    }
    work = work != null ? work : Files.createTempDirectory("ratchet-fleet-chaos");
    Outcome o = run(work, seed, runs > 0 ? runs : full ? 60 : 4, kills > 0 ? kills : full ? 12 : 2);
    System.out.println(summary(seed, o));
    o.failures().forEach(f -> System.out.println("FAIL " + f));
    System.exit(o.passed() ? 0 : 1);
  }

  static String summary(long seed, Outcome o) {
    return String.format(
        Locale.ROOT,
        "workers campaign seed %d: %d runs, %d completed, %d kills (%d runs held by killed"
            + " workers, each claimed again), %d failures: %s",
        seed,
        o.runs(),
        o.completed(),
        o.kills().size(),
        o.stranded(),
        o.failures().size(),
        o.passed() ? "PASS" : "FAIL");
  }

  static Outcome run(Path work, long seed, int runs, int kills) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    Map<String, ReferenceService> services = new LinkedHashMap<>();
    List<String> failures = new ArrayList<>();
    List<Fleet.Kill> done = new ArrayList<>();
    int completed = 0;
    try (Fleet f = Fleet.create(work, LEASE, POLL);
        FleetCli cli = f.cli()) {
      for (int i = 1; i <= runs; i++) {
        String id = String.format(Locale.ROOT, "c%03d", i);
        ReferenceService svc = ReferenceService.start(work.resolve("ledger-" + id + ".db"), 0);
        services.put(id, svc);
        Path task = FleetTasks.ledgerRun(work, id, svc.uri().toString(), svc.clientSecretFile());
        cli.ok(f.enqueueArgs(task, id));
      }
      for (int w = 1; w <= WORKERS; w++) {
        f.start("w" + w, CONCURRENCY);
      }
      for (int k = 0; k < kills; k++) {
        Thread.sleep(random.nextLong(LEASE.toMillis()));
        Fleet.Kill kill = f.killBusy(random, CONCURRENCY, 60_000);
        if (kill == null) {
          break; // every run ended before this kill
        }
        done.add(kill);
      }
      if (!f.awaitEnded(services.keySet(), Duration.ofMinutes(10).toMillis())) {
        failures.add("not every run ended within 10 minutes; see " + f.log);
      }
      for (Fleet.Kill kill : done) {
        for (String run : kill.runs()) {
          if (f.claimedAgain(run, kill.worker(), kill.nanos()) < 0) {
            failures.add(run + ": held by killed " + kill.worker() + ", never claimed again");
          }
        }
      }
      for (Map.Entry<String, ReferenceService> e : services.entrySet()) {
        String problem = judge(f, cli, e.getKey(), e.getValue());
        if (problem == null) {
          completed++;
        } else {
          failures.add(e.getKey() + ": " + problem);
        }
      }
    } finally {
      services.values().forEach(ReferenceService::close);
    }
    return new Outcome(runs, completed, done, failures);
  }

  /** Null when the run completed and each of its orders is in the ledger exactly once. */
  private static String judge(Fleet f, FleetCli cli, String id, ReferenceService svc)
      throws InterruptedException {
    FleetCli.Result status = cli.run("status", id, "--home", f.home.toString(), "--store", f.url);
    if (status.exit() != 0 || !status.text().contains("completed")) {
      return "status is not completed: " + status.text();
    }
    List<JsonObject> orders = svc.orders();
    Map<String, Integer> perSku = new LinkedHashMap<>();
    for (JsonObject o : orders) {
      String sku = o.get("sku").orElse(null) instanceof JsonString s ? s.value() : "?";
      perSku.merge(sku, 1, Integer::sum);
    }
    for (int i = 1; i <= FleetTasks.LEDGER_ORDERS; i++) {
      if (perSku.getOrDefault("sku-" + i, 0) != 1) {
        return "order sku-"
            + i
            + " is in the ledger "
            + perSku.getOrDefault("sku-" + i, 0)
            + " times: "
            + orders;
      }
    }
    if (orders.size() != FleetTasks.LEDGER_ORDERS) {
      return "the ledger holds orders nobody asked for: " + orders;
    }
    return null;
  }
}
