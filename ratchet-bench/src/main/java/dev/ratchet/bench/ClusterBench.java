package dev.ratchet.bench;

import dev.ratchet.jdbc.Cluster;
import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.ShardedStore;
import dev.ratchet.jdbc.StoreOptions;
import dev.ratchet.seam.Seams;
import dev.ratchet.testkit.ThrowawayPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Issue 44: the same store code ({@link ShardedStore}) over one PostgreSQL cluster and over two, in
 * alternating rounds of one run of this program, so the ratio is measured side by side on whatever
 * the machine is doing. Each of {@code threads} clients loops as a worker slot does at the store:
 * claim (timed), commit {@code steps} write steps shaped like the runtime's ({@link ClusterLoad}),
 * finish, release, and schedule the next run. Prints runs/s, commits/s and claim latency per arm,
 * the two-cluster/one-cluster ratio and the load average around each round.
 *
 * <pre>ClusterBench [--seconds S] [--rounds R] [--threads T] [--steps K] [--out FILE]
 *              [--clusters a=URL b=URL]   (default: two throwaway clusters on 55442, 55443)</pre>
 */
public final class ClusterBench {
  private static final int FIRST_PORT = 55442;

  private ClusterBench() {}

  /** One arm's figures in one round. */
  record Arm(int clusters, int round, ClusterLoad.Totals totals, String loadBefore, String load) {}

  public static void main(String[] argv) throws Exception {
    int seconds = 8;
    int rounds = 3;
    int threads = 8;
    int steps = 4;
    Path out = null;
    List<String> urls = new ArrayList<>();
    for (int i = 0; i < argv.length; i++) {
      switch (argv[i]) {
        case "--seconds" -> seconds = Integer.parseInt(argv[++i]);
        case "--rounds" -> rounds = Integer.parseInt(argv[++i]);
        case "--threads" -> threads = Integer.parseInt(argv[++i]);
        case "--steps" -> steps = Integer.parseInt(argv[++i]);
        case "--out" -> out = Path.of(argv[++i]);
        case "--clusters" -> {
          urls.add(argv[++i]);
          urls.add(argv[++i]);
        }
        default -> throw new IllegalArgumentException("unknown argument: " + argv[i]);
      }
    }
    List<ThrowawayPostgres> own = new ArrayList<>();
    try {
      if (urls.isEmpty()) {
        Path bin =
            ThrowawayPostgres.binaries()
                .orElseThrow(() -> new IllegalStateException("no PostgreSQL server binaries"));
        for (int i = 0; i < 2; i++) {
          ThrowawayPostgres c = ThrowawayPostgres.start(bin, FIRST_PORT + i);
          own.add(c);
          urls.add("c" + i + "=" + c.url());
        }
      }
      String table = table(run(urls, seconds, rounds, threads, steps), threads, steps, seconds);
      System.out.println(table);
      if (out != null) {
        Files.writeString(out, table);
      }
    } finally {
      own.forEach(ThrowawayPostgres::close);
    }
  }

  /** Rounds of both arms, the order alternating, each on fresh schemas. */
  static List<Arm> run(List<String> urls, int seconds, int rounds, int threads, int steps)
      throws Exception {
    List<Arm> arms = new ArrayList<>();
    for (int r = 1; r <= rounds; r++) {
      for (int n : r % 2 == 1 ? List.of(1, 2) : List.of(2, 1)) {
        String before = load();
        ClusterLoad.Totals t = arm(urls.subList(0, n), seconds, threads, steps);
        arms.add(new Arm(n, r, t, before, load()));
        System.out.println(
            String.format(
                Locale.ROOT,
                "round %d, %d cluster(s): %.1f runs/s, %.1f commits/s, claim p50 %.1f ms p99 %.1f"
                    + " ms (load %s -> %s)",
                r,
                n,
                t.runsPerSecond(),
                t.commitsPerSecond(),
                t.claimP50Millis(),
                t.claimP99Millis(),
                before,
                load()));
      }
    }
    return arms;
  }

  private static ClusterLoad.Totals arm(List<String> entries, int seconds, int threads, int steps)
      throws Exception {
    String schema = "cbench_" + Long.toString(Stopwatch.nanos() & Long.MAX_VALUE, 36);
    List<Cluster> clusters = new ArrayList<>();
    for (String e : entries) {
      int eq = e.indexOf('=');
      clusters.add(
          new Cluster(
              e.substring(0, eq),
              Database.postgres(e.substring(eq + 1), "postgres", null)
                  .withSchema(schema)
                  .withPoolSize(threads + 2)));
    }
    try (ShardedStore store =
        ShardedStore.open(
            clusters, StoreOptions.defaults(Seams.systemClock()).withOpenMode(OpenMode.CREATE))) {
      return new ClusterLoad(store, threads, steps).run(Duration.ofSeconds(seconds));
    } finally {
      for (Cluster c : clusters) {
        try (Connection conn =
                DriverManager.getConnection(c.database().jdbcUrl(), "postgres", null);
            Statement s = conn.createStatement()) {
          s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
      }
    }
  }

  static String table(List<Arm> arms, int threads, int steps, int seconds) {
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "%d clients, %d write steps per run, %d s per arm; rounds alternate the order.%n%n",
            threads,
            steps,
            seconds));
    b.append("| round | clusters | runs/s | commits/s | claim p50 ms | claim p99 ms | load |\n");
    b.append("|---|---|---|---|---|---|---|\n");
    for (Arm a : arms) {
      b.append(
          String.format(
              Locale.ROOT,
              "| %d | %d | %.1f | %.1f | %.1f | %.1f | %s -> %s |%n",
              a.round(),
              a.clusters(),
              a.totals().runsPerSecond(),
              a.totals().commitsPerSecond(),
              a.totals().claimP50Millis(),
              a.totals().claimP99Millis(),
              a.loadBefore(),
              a.load()));
    }
    double one = median(arms, 1);
    double two = median(arms, 2);
    b.append(
        String.format(
            Locale.ROOT,
            "%nmedian runs/s: 1 cluster %.1f, 2 clusters %.1f; ratio 2/1 = %.2f%n",
            one,
            two,
            two / one));
    return b.toString();
  }

  private static double median(List<Arm> arms, int clusters) {
    double[] v =
        arms.stream()
            .filter(a -> a.clusters() == clusters)
            .mapToDouble(a -> a.totals().runsPerSecond())
            .sorted()
            .toArray();
    return v.length == 0 ? 0 : v[v.length / 2];
  }

  /** The 1-minute load average (the machine is shared). */
  static String load() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (java.io.IOException e) {
      return "?";
    }
  }
}
