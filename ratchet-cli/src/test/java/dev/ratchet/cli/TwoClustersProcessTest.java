package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.jdbc.Cluster;
import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.ShardedStore;
import dev.ratchet.jdbc.StoreOptions;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.ops.Decisions;
import dev.ratchet.ops.Home;
import dev.ratchet.ops.KeyConfig;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.SubmittedTask;
import dev.ratchet.ops.TaskFile;
import dev.ratchet.ops.internal.PlanDriver;
import dev.ratchet.seam.Seams;
import dev.ratchet.sign.Role;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.testkit.ThrowawayPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 44's must-show with real processes: runs submitted to a store spread over two throwaway
 * PostgreSQL clusters ({@code initdb} as the {@code postgres} user, ports 55440 and 55441). Cluster
 * b is killed ({@code pg_ctl stop -m immediate}) as soon as its first run's first order reached the
 * service; the worker is SIGKILLed while b is down and a second worker, started while b is still
 * down, finishes every run of a while b's runs wait (and {@code status}, which reads every cluster,
 * fails closed naming b); b is restarted and its runs resume and finish. The reference service's
 * own ledger counts every order exactly once; {@code status} lists the runs of both clusters and
 * {@code inspect} shows each run's cluster.
 */
class TwoClustersProcessTest {
  private static final int PORT_A = 55440;
  private static final int PORT_B = 55441;
  private static final int PER_CLUSTER = 3;

  @TempDir Path dir;

  @Test
  @Timeout(300)
  void runsOnTheOtherClusterGoOnWhileOneIsKilledAndAllFinishOnceWhenItReturns() throws Exception {
    Optional<Path> bin = ThrowawayPostgres.binaries();
    if (bin.isEmpty() && "true".equals(System.getenv("CI"))) {
      throw new IllegalStateException("CI=true requires the PostgreSQL server binaries (initdb)");
    }
    Assumptions.assumeTrue(bin.isPresent(), "no PostgreSQL server binaries (initdb) here");
    try (ThrowawayPostgres a = ThrowawayPostgres.start(bin.get(), PORT_A);
        ThrowawayPostgres b = ThrowawayPostgres.start(bin.get(), PORT_B);
        Ledgers svc = new Ledgers(dir)) {
      ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve("clusters"))).keys();
      Path operatorKey = c.operator("olga");
      c.env.put("RATCHET_PG_USER", "postgres");
      c.env.put("RATCHET_STORE", "clusters:a=" + a.url() + " b=" + b.url());
      ProcessCli.Result init = c.run("db", "init");
      assertThat(init.exit()).as(init.all()).isZero();
      assertThat(init.out()).contains("cluster a:").contains("cluster b:");

      try (ShardedStore store = open(a, b)) {
        // Three runs placed on each cluster, submitted alternately (a, b, a, b, ...).
        Map<String, List<String>> runs = pick(store);
        List<String> onA = runs.get("a");
        List<String> onB = runs.get("b");
        SigningKey olga = KeyConfig.signer(operatorKey, null, new Home(c.home()), Role.OPERATOR);
        for (int i = 0; i < PER_CLUSTER; i++) {
          submit(c, svc, store, olga, onA.get(i));
          submit(c, svc, store, olga, onB.get(i));
        }

        ProcessCli.Started w1 = worker(c, "w1");
        try {
          // b dies once its first run's first order is in the ledger: that run is in flight, the
          // other runs of b have not started.
          await(() -> !ordersOf(svc, onB).isEmpty(), w1, "a first order of a run on b");
          b.stopImmediately();
          int atStop = svc.orders().size();
          await(() -> svc.orders().size() > atStop, w1, "an order of a run on a while b is down");
        } finally {
          w1.process().destroyForcibly(); // SIGKILL, while b is down
          assertThat(w1.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(w1.process().exitValue()).isEqualTo(137);

        ProcessCli.Started w2 = worker(c, "w2");
        try {
          // Every run of a ends (whichever worker ended it) while b is still down.
          await(() -> endedAll(onA, w1, w2), w2, "every run of a ended while b is down");
          for (String run : onA) {
            assertThat(ordersOf(svc, List.of(run))).as(run).hasSize(2);
          }
          assertThat(ended(onB.get(1), w1, w2) || ended(onB.get(2), w1, w2))
              .as("runs of b wait while b is down")
              .isFalse();
          assertThat(ordersOf(svc, onB.subList(1, PER_CLUSTER))).isEmpty();
          ProcessCli.Result down = c.run("status");
          assertThat(down.exit()).as(down.all()).isNotZero();
          assertThat(down.err()).contains("cluster b");

          b.start();
          await(() -> endedAll(onB, w1, w2), w2, "every run of b ended after b came back");
        } finally {
          w2.process().destroy();
          w2.process().waitFor(60, TimeUnit.SECONDS);
        }

        // The service's own ledger: two orders per run, each placed exactly once.
        assertThat(svc.orders()).hasSize(4 * PER_CLUSTER);
        for (String run : runs.values().stream().flatMap(List::stream).toList()) {
          assertThat(ordersOf(svc, List.of(run)))
              .as(run)
              .extracting(o -> ((JsonString) o.get("sku").orElseThrow()).value())
              .containsExactlyInAnyOrder("widget", "gadget");
        }

        ProcessCli.Result status = c.run("status");
        assertThat(status.exit()).as(status.all()).isZero();
        for (String run : runs.values().stream().flatMap(List::stream).toList()) {
          assertThat(status.out()).contains(run);
        }
        assertThat(status.out().lines().filter(l -> l.contains("completed")).count())
            .as(status.out())
            .isGreaterThanOrEqualTo(2L * PER_CLUSTER);
        // inspect names the run's cluster (one JVM: the same line for either cluster).
        ProcessCli.Result inspect = c.run("inspect", onB.get(0));
        assertThat(inspect.exit()).as(inspect.all()).isZero();
        assertThat(inspect.out()).contains("cluster b\n");
        for (String cluster : List.of("a", "b")) {
          for (String run : runs.get(cluster)) {
            assertThat(store.clusterOf(run)).as(run).contains(cluster);
          }
        }
      }
    }
  }

  private static ShardedStore open(ThrowawayPostgres a, ThrowawayPostgres b) {
    return ShardedStore.open(
        List.of(
            new Cluster("a", Database.postgres(a.url(), "postgres", null)),
            new Cluster("b", Database.postgres(b.url(), "postgres", null))),
        StoreOptions.defaults(Clock.systemUTC()).withOpenMode(OpenMode.MUST_EXIST));
  }

  /** The first run ids the store places on each cluster. */
  private static Map<String, List<String>> pick(ShardedStore store) {
    Map<String, List<String>> out = new TreeMap<>();
    for (int i = 1; out.values().stream().mapToInt(List::size).sum() < 2 * PER_CLUSTER; i++) {
      String run = String.format("o%02d", i);
      List<String> mine = out.computeIfAbsent(store.placementOf(run), k -> new ArrayList<>());
      if (mine.size() < PER_CLUSTER) {
        mine.add(run);
      }
    }
    return out;
  }

  /** Signs and submits the orders task of {@code run}, as {@code ratchet submit} does. */
  private static void submit(
      ProcessCli c, Ledgers svc, ShardedStore store, SigningKey olga, String run)
      throws IOException {
    TaskFile task = TaskFile.load(ordersTask(c, svc.of(run), run), Services.standard().adapters());
    store.submit(
        task.task().taskId(),
        run,
        PlanDriver.NAME,
        SubmittedTask.sign(
            task, run, PlanDriver.NAME, Decisions.nonce("submit", Seams.secureEntropy()), olga));
  }

  /** The HTTP example without its payment: two orders for an account of the run's own. */
  private static Path ordersTask(ProcessCli c, ReferenceService svc, String run)
      throws IOException {
    Path example = Path.of("../examples/http/acme-orders.json");
    String account = "acct-" + run;
    JsonObject json = (JsonObject) Json.parse(Files.readString(example).replace("acme", account));
    JsonObject task =
        ((JsonObject) json.get("task").orElseThrow())
            .with("approval_required", JsonArray.EMPTY)
            .with(
                "verifier",
                Json.parse(
                    "{\"expect\":{\""
                        + account
                        + "\":{\"orders\":2,\"ordered_cents\":13650,\"paid_cents\":0}}}"));
    JsonArray plan = (JsonArray) json.get("plan").orElseThrow();
    List<dev.ratchet.json.JsonValue> steps = new ArrayList<>(plan.items());
    steps.removeIf(s -> Canonical.string(s).contains("\"pay_order\""));
    Path file = c.cwd.resolve(run + ".json");
    Files.writeString(
        file,
        Canonical.string(
            json.with("task", task)
                .with("plan", new JsonArray(steps))
                .with(
                    "connect",
                    JsonObject.builder()
                        .put("base_url", svc.uri().toString())
                        .put("client_secret_file", svc.clientSecretFile().toString())
                        .build())));
    return file;
  }

  private static ProcessCli.Started worker(ProcessCli c, String id) throws IOException {
    return c.start(
        "worker", "--worker-id", id, "--lease-ttl", "2s", "--poll", "100ms", "--concurrency", "1");
  }

  /** The orders of these runs in their services' own ledgers. */
  private static List<JsonObject> ordersOf(Ledgers svc, List<String> runs) {
    return runs.stream().flatMap(r -> svc.of(r).orders().stream()).toList();
  }

  /**
   * One reference service per run (a task starts from the service's revision 0), each counting its
   * own orders.
   */
  private static final class Ledgers implements AutoCloseable {
    private final Path dir;
    private final Map<String, ReferenceService> services = new TreeMap<>();

    Ledgers(Path dir) {
      this.dir = dir;
    }

    synchronized ReferenceService of(String run) {
      return services.computeIfAbsent(
          run, r -> ReferenceService.start(dir.resolve("ledger-" + r + ".db"), 0));
    }

    synchronized List<JsonObject> orders() {
      return services.values().stream().flatMap(s -> s.orders().stream()).toList();
    }

    @Override
    public synchronized void close() {
      services.values().forEach(ReferenceService::close);
    }
  }

  private static boolean ended(String run, ProcessCli.Started... workers) {
    for (ProcessCli.Started w : workers) {
      try {
        if (w.stderr().contains("run " + run + ": ended")) {
          return true;
        }
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    return false;
  }

  private static boolean endedAll(List<String> runs, ProcessCli.Started... workers) {
    return runs.stream().allMatch(r -> ended(r, workers));
  }

  /** Waits (bounded, generously) until {@code done}; the worker's output on failure. */
  private static void await(BooleanSupplier done, ProcessCli.Started w, String what)
      throws IOException, InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < until) {
      if (done.getAsBoolean()) {
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError(
        "not reached: " + what + "; stdout:\n" + w.stdout() + "\nstderr:\n" + w.stderr());
  }
}
