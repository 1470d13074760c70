package dev.ratchet.bench;

import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.PostgresAccess;
import dev.ratchet.jdbc.StoreOptions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * Figure 4: write steps/s with 1 and 8 runs on PostgreSQL against raw single-row commits from as
 * many clients on the same server, in the same rounds. The store runs as a deployment would (docs/
 * store.md): a fresh schema owned and migrated by an owner role, a worker role that commits through
 * the store's functions, {@code synchronous_commit = on}, a connection pool, no group commit. The
 * raw clients insert one row of the checkpoint's size per auto-committed statement, also with
 * {@code synchronous_commit = on}. A third arm writes the rows of N runs' write steps alone ({@link
 * StepRows}), the bound any store of this data model could reach. The schema is dropped afterwards.
 */
final class Postgres {
  static final String URL = env("RATCHET_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test");
  static final String ADMIN = env("RATCHET_PG_ADMIN", "postgres");
  private static final String OWNER = "ratchet_bench_owner";
  private static final String WORKER = "ratchet_bench_worker";
  private static final String PASSWORD = "ratchet-bench-only";
  private static final List<Integer> RUNS = List.of(1, 8);

  private final HarnessConfig cfg;
  private final Report report;
  private final Log log;
  private final SecondCommit secondCommit;

  Postgres(HarnessConfig cfg, Report report, Log log, SecondCommit secondCommit) {
    this.cfg = cfg;
    this.report = report;
    this.log = log;
    this.secondCommit = secondCommit;
  }

  private static String env(String name, String fallback) {
    String v = System.getenv(name);
    return v == null || v.isBlank() ? fallback : v;
  }

  void run(int checkpointBytes, String checkpointSample, java.util.Set<Integer> figures) {
    String schema = "ratchet_bench_" + Long.toString(Stopwatch.nanos() & Long.MAX_VALUE, 36);
    try (Connection admin = connect(ADMIN)) {
      exec(
          admin,
          role(OWNER),
          role(WORKER),
          "CREATE SCHEMA " + schema + " AUTHORIZATION " + OWNER,
          "CREATE SCHEMA " + previous(schema) + " AUTHORIZATION " + OWNER,
          "CREATE TABLE " + schema + ".bench_raw (id BIGSERIAL PRIMARY KEY, body TEXT NOT NULL)",
          "ALTER TABLE " + schema + ".bench_raw OWNER TO " + OWNER);
      Peer peer = figures.contains(4) ? Peer.dbos(URL, ADMIN, log).orElse(null) : null;
      try {
        measure(schema, likeCheckpoint(checkpointSample, checkpointBytes), peer, admin, figures);
      } finally {
        if (peer != null) {
          peer.close();
        }
        exec(
            admin,
            "DROP SCHEMA IF EXISTS " + schema + " CASCADE",
            "DROP SCHEMA IF EXISTS " + previous(schema) + " CASCADE");
      }
      if (peer == null && figures.contains(4)) {
        for (int n : RUNS) {
          report.add(
              Row.notMeasured(
                  "7",
                  "write steps/s, " + n + " vs DBOS Transact",
                  WriteStepTarget.forRuns(n).text(),
                  "not measured: DBOS is not on the class path (run the harness with -Pdbos)"));
        }
      }
    } catch (Exception e) {
      String why = "not measured: PostgreSQL at " + URL + " failed: " + causes(e);
      log.line("figure 4: " + why);
      for (int n : RUNS) {
        report.add(Row.notMeasured("4", measure(n), target(n), why));
      }
    }
  }

  /**
   * {@code bytes} characters of a real checkpoint (repeated if it is shorter): what a baseline
   * writes "of Ratchet's checkpoint size". PostgreSQL compresses a value above about 2 KB (TOAST),
   * so a filler of one repeated letter would be stored in a few dozen bytes and not be that size.
   */
  static String likeCheckpoint(String sample, int bytes) {
    if (sample.isEmpty()) {
      throw new IllegalArgumentException("no checkpoint sample to size the baseline with");
    }
    StringBuilder b = new StringBuilder(bytes + sample.length());
    while (b.length() < bytes) {
      b.append(sample);
    }
    return b.substring(0, bytes);
  }

  private void measure(
      String schema, String body, Peer peer, Connection admin, java.util.Set<Integer> figures)
      throws Exception {
    CpuMeter meter = new CpuMeter(CpuMeter.PROC, () -> CpuMeter.listedBy(admin));
    Database owner = migrated(schema);
    Database beside = migrated(previous(schema));
    try (Connection c = connect(OWNER)) {
      StepRows.createTables(c, schema);
      secondCommit.install(c, previous(schema));
    }
    try (BenchStore s = new BenchStore(owner.as(WORKER, PASSWORD), false, cfg.contentChars());
        BenchStore old = new BenchStore(beside.as(WORKER, PASSWORD), false, cfg.contentChars())) {
      for (int n : figures.contains(4) ? RUNS : List.<Integer>of()) {
        List<Driver> drivers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          drivers.add(s.start("f4-" + n + "-" + i));
        }
        List<RawClient> raws = new ArrayList<>();
        List<StepRows> rows = new ArrayList<>();
        try {
          for (int i = 0; i < n; i++) {
            raws.add(new RawClient(connect(OWNER), schema));
          }
          Timed.parallel(n, Math.max(1, cfg.warmupMillis() / 3), w -> drivers.get(w).writeStep());
          // The step's shape is counted after the runs' first commits (which carry fewer records).
          BenchStore.Counts before = s.counts();
          Timed.parallel(n, Math.max(1, cfg.warmupMillis() / 6), w -> drivers.get(w).writeStep());
          BenchStore.Counts warm = s.counts().minus(before);
          for (int i = 0; i < n; i++) {
            rows.add(
                StepRows.open(
                    connect(OWNER),
                    schema,
                    "f4-rows-" + n + "-" + i,
                    body,
                    warm.recordsPerCommit(),
                    warm.meanRecordBytes()));
          }
          rounds(s, n, drivers, raws, rows, body);
          if (n > 1) {
            batched(owner, n, drivers);
          }
          if (peer != null) {
            // Started here, not with figure 4's runs: a run idle through figure 4's full rounds
            // outlives its 30 s lease and its first step is refused FENCED.
            List<Driver> oldDrivers = new ArrayList<>();
            for (int i = 0; i < n; i++) {
              oldDrivers.add(old.start("f7-previous-" + n + "-" + i));
            }
            new PeerRounds(cfg, report, log, secondCommit)
                .run(
                    n,
                    s,
                    drivers,
                    new PeerRounds.Previous(old, oldDrivers),
                    rows,
                    peer,
                    body,
                    meter,
                    admin.getCatalog());
          }
        } finally {
          for (RawClient r : raws) {
            r.close();
          }
          for (StepRows r : rows) {
            r.close();
          }
        }
      }
    }
    if (figures.contains(8)) {
      queue(owner, admin, meter);
    }
  }

  /** The schema beside {@code schema} that keeps the previous commit function (figure 7). */
  private static String previous(String schema) {
    return schema + "_previous";
  }

  /** A fresh store schema, migrated by its owner, the worker role granted its functions. */
  private static Database migrated(String schema) {
    Database owner = Database.postgres(URL, OWNER, PASSWORD).withSchema(schema).withPoolSize(16);
    JdbcStore.open(
            owner,
            StoreOptions.defaults(dev.ratchet.seam.Seams.systemClock())
                .withOpenMode(OpenMode.CREATE))
        .close();
    PostgresAccess.grantWorker(owner, WORKER);
    return owner;
  }

  /** Figure 8: the worker path beside DBOS's queue, when DBOS is compiled in (-Pdbos). */
  private void queue(Database owner, Connection admin, CpuMeter meter) throws Exception {
    java.util.Optional<QueueSide> dbos = QueueRounds.dbos(URL, ADMIN, log);
    if (dbos.isEmpty()) {
      report.add(
          Row.notMeasured(
              "8",
              "worker path runs/s and submit-to-done latency vs DBOS queue",
              "goal ≥ 1.5×, floor 1.0×",
              "not measured: DBOS is not on the class path (run the harness with -Pdbos)"));
      return;
    }
    try (QueueSide theirs = dbos.get();
        WorkerPath ours = new WorkerPath(owner, owner.as(WORKER, PASSWORD), admin.getCatalog())) {
      new QueueRounds(cfg, report, log).run(ours, theirs, meter);
    }
  }

  private void rounds(
      BenchStore s,
      int n,
      List<Driver> drivers,
      List<RawClient> raws,
      List<StepRows> rows,
      String body) {
    List<Double> steps = new ArrayList<>();
    List<Double> raw = new ArrayList<>();
    List<Double> ratios = new ArrayList<>();
    List<Double> alone = new ArrayList<>();
    List<Double> aloneRatios = new ArrayList<>();
    BenchStore.Counts used = BenchStore.Counts.ZERO;
    long stepCount = 0;
    double seconds = 0;
    List<Long> latency = new ArrayList<>();
    for (int r = 0; r < cfg.rounds(); r++) {
      double ours = 0;
      double theirs = 0;
      double rowsAlone = 0;
      for (int k = 0; k < 3; k++) {
        int arm = (k + r) % 3;
        if (arm == 0) {
          theirs = Timed.parallel(n, cfg.roundMillis(), w -> raws.get(w).commitOne(body)).rate();
        } else if (arm == 1) {
          rowsAlone = Timed.parallel(n, cfg.roundMillis(), w -> rows.get(w).commitOne()).rate();
        } else {
          BenchStore.Counts before = s.counts();
          long steps0 = total(drivers);
          Timed t = Timed.parallel(n, cfg.roundMillis(), w -> drivers.get(w).writeStep(), latency);
          long done = total(drivers) - steps0;
          used = used.plus(s.counts().minus(before));
          stepCount += done;
          seconds += t.seconds();
          ours = done / t.seconds();
        }
      }
      steps.add(ours);
      raw.add(theirs);
      ratios.add(ours / theirs);
      alone.add(rowsAlone);
      aloneRatios.add(rowsAlone / theirs);
      log.line(
          String.format(
              Locale.ROOT,
              "  PostgreSQL %d runs, round %d: raw %d clients %.0f commits/s, Ratchet %.0f steps/s,"
                  + " the rows alone %.0f steps/s",
              n,
              r,
              n,
              theirs,
              ours,
              rowsAlone));
    }
    report.add(
        Row.untargeted(
            "4",
            String.format(
                Locale.ROOT,
                "the rows of a write step alone, %d %s: %s, one statement each, no checks,"
                    + " no runtime",
                n,
                n == 1 ? "client" : "clients",
                rows.get(0).shape()),
            String.format(Locale.ROOT, "%,.0f steps/s", Stats.median(alone)),
            String.format(Locale.ROOT, "%,.0f commits/s", Stats.median(raw)),
            Stats.median(aloneRatios),
            "the least a store of this data model writes per step: bounds Ratchet's ratio here,"
                + " and against DBOS (figure 7) this ratio over DBOS's"));
    double ratio = Stats.median(ratios);
    double commits = (double) used.commits() / stepCount;
    double reads = (double) used.reads() / stepCount;
    report.add(
        new Row(
            "4",
            measure(n),
            String.format(Locale.ROOT, "%,.0f steps/s", Stats.median(steps)),
            String.format(
                Locale.ROOT,
                "%,.0f commits/s (%d %s)",
                Stats.median(raw),
                n,
                n == 1 ? "client" : "clients"),
            ratio,
            target(n),
            n == 8 ? Row.atLeast(ratio, 0.7) : "—",
            String.format(
                Locale.ROOT,
                n == 1
                    ? "WAL flush: %.2f commits per step (counted), each one call (ratchet_commit)"
                        + " that waits for its own flush; %.2f reads per step"
                    : "WAL flush shared by concurrent commits, %.2f commits and %.2f reads per"
                        + " step (counted); CPU: 8 runs and the server on 2 cores",
                commits,
                reads),
            true,
            String.format(
                Locale.ROOT,
                "%.2f checkpoint commits and %.2f read transactions per write step; step latency"
                    + " %s; per step and run %.2f ms inside commit calls, %.2f ms inside reads,"
                    + " %.2f ms elsewhere",
                commits,
                reads,
                Stats.p50p99(latency),
                used.commitNanos() / 1e6 / stepCount,
                used.readNanos() / 1e6 / stepCount,
                (n * seconds * 1e9 - used.commitNanos() - used.readNanos()) / 1e6 / stepCount)));
  }

  /**
   * The batched commit (ADR 0141) side by side with the unbatched store: the same n runs' write
   * steps through a second store with group commit on, whose writer sends the queued commits of
   * several runs as one {@code ratchet_commit_batch} call, alternating with the unbatched store's
   * drivers in every round.
   */
  private void batched(Database owner, int n, List<Driver> plain) {
    try (BenchStore b = new BenchStore(owner.as(WORKER, PASSWORD), true, cfg.contentChars())) {
      List<Driver> drivers = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        drivers.add(b.start("f4b-" + n + "-" + i));
      }
      Timed.parallel(n, Math.max(1, cfg.warmupMillis() / 3), w -> drivers.get(w).writeStep());
      List<Double> on = new ArrayList<>();
      List<Double> off = new ArrayList<>();
      List<Double> ratios = new ArrayList<>();
      List<Long> latency = new ArrayList<>();
      dev.ratchet.jdbc.CommitStats before = b.jdbc.stats();
      for (int r = 0; r < cfg.rounds(); r++) {
        double with = 0;
        double without = 0;
        for (int k = 0; k < 2; k++) {
          if ((k + r) % 2 == 0) {
            long s0 = total(drivers);
            Timed t =
                Timed.parallel(n, cfg.roundMillis(), w -> drivers.get(w).writeStep(), latency);
            with = (total(drivers) - s0) / t.seconds();
          } else {
            long s0 = total(plain);
            Timed t = Timed.parallel(n, cfg.roundMillis(), w -> plain.get(w).writeStep());
            without = (total(plain) - s0) / t.seconds();
          }
        }
        on.add(with);
        off.add(without);
        ratios.add(with / without);
        log.line(
            String.format(
                Locale.ROOT,
                "  PostgreSQL %d runs, round %d: batched commit %.0f steps/s, unbatched %.0f",
                n,
                r,
                with,
                without));
      }
      dev.ratchet.jdbc.CommitStats used = b.jdbc.stats();
      long txs = used.transactions() - before.transactions();
      long reqs = used.requests() - before.requests();
      report.add(
          Row.untargeted(
              "4",
              String.format(
                  Locale.ROOT,
                  "write steps/s, %d runs, PostgreSQL, batched commit (group commit on:"
                      + " ratchet_commit_batch) vs the same runs unbatched",
                  n),
              String.format(Locale.ROOT, "%,.0f steps/s", Stats.median(on)),
              String.format(Locale.ROOT, "%,.0f steps/s", Stats.median(off)),
              Stats.median(ratios),
              String.format(
                  Locale.ROOT,
                  "%.2f commits per call (largest %d); step latency %s",
                  txs == 0 ? 0.0 : (double) reqs / txs,
                  used.largestBatch(),
                  Stats.p50p99(latency))));
    }
  }

  private static String measure(int n) {
    return "write steps/s, " + n + (n == 1 ? " run" : " runs") + ", PostgreSQL, worker role";
  }

  private static String target(int n) {
    // Issue 9's; issue 16 set PostgreSQL's current targets against DBOS (figure 7).
    return n == 8 ? "≥ 0.7× raw with 8 clients (issue 9)" : "—";
  }

  private static long total(List<Driver> drivers) {
    long n = 0;
    for (Driver d : drivers) {
      n += d.steps();
    }
    return n;
  }

  private static String role(String name) {
    return "DO $$ BEGIN CREATE ROLE "
        + name
        + " LOGIN PASSWORD '"
        + PASSWORD
        + "'; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$";
  }

  static Connection connect(String user) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", user);
    p.setProperty("password", PASSWORD);
    p.setProperty("connectTimeout", "3");
    return DriverManager.getConnection(URL, p);
  }

  private static void exec(Connection c, String... statements) throws SQLException {
    try (Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }

  /** One raw client: one connection, each INSERT its own durable transaction. */
  private static final class RawClient implements AutoCloseable {
    private final Connection c;
    private final PreparedStatement insert;

    RawClient(Connection c, String schema) throws SQLException {
      this.c = c;
      c.setAutoCommit(true);
      exec(c, "SET synchronous_commit = on");
      this.insert = c.prepareStatement("INSERT INTO " + schema + ".bench_raw (body) VALUES (?)");
    }

    void commitOne(String body) throws SQLException {
      insert.setString(1, body);
      insert.executeUpdate();
    }

    @Override
    public void close() throws SQLException {
      c.close();
    }
  }

  /** The exception and its causes, so a "not measured" row says what failed, not only where. */
  private static String causes(Throwable e) {
    StringBuilder out = new StringBuilder(String.valueOf(e));
    for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
      out.append(" <- ").append(c);
    }
    return out.toString();
  }
}
