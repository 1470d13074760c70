package dev.ratchet.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.harness.ChildJvm;
import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.store.StoredRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash windows of a batched commit (ADR 0141), with real killed JVMs: a {@link
 * BatchedCommitWorker} drives six ledger runs at once on PostgreSQL with group commit on and is
 * SIGKILLed (1) with a batch assembled and not sent, (2) with a batch returned and no run told, and
 * (3) with a batch in flight: the test holds every run's mark row, so the call waits inside the
 * server; after the kill the orphaned call either finishes (the locks released: its runs commit
 * together) or is terminated (none of them commits). A fresh worker then recovers every run, and
 * each run must complete with each of its three orders placed exactly once in the ledger's own
 * books (D18), no receipt lost. Required when {@code CI=true}; skipped with a reason elsewhere.
 */
class BatchedCommitKillTest {
  private static final int RUNS = 6;
  private static final long SEED = 38;

  @TempDir Path dir;
  private String schema;
  private final List<ReferenceService> services = new ArrayList<>();
  private final List<RunVerdict.RunSpec> specs = new ArrayList<>();
  private final List<ChildJvm> workers = new ArrayList<>();
  private Path runsFile;

  @BeforeAll
  static void needsPostgres() {
    String problem = PgServer.problem();
    if (problem != null) {
      String why = "PostgreSQL at " + PgServer.SHARED_URL + " is not reachable (" + problem + ")";
      if (PgServer.required()) {
        throw new IllegalStateException("CI=true requires " + why);
      }
      System.err.println("SKIPPED BatchedCommitKillTest: " + why + "; set CI=true to require it");
      Assumptions.abort(why);
    }
  }

  @BeforeEach
  void setUp() throws Exception {
    schema = PgServer.createSchema(PgServer.SHARED_URL);
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < RUNS; i++) {
      String id = "batch-run-" + i;
      ReferenceService s = ChaosLedger.start(dir.resolve(id + ".db"));
      services.add(s);
      specs.add(new RunVerdict.RunSpec(id, ChaosTasks.Kind.LEDGER, s.uri().toString()));
      lines.append(id).append(' ').append(s.uri()).append('\n');
    }
    runsFile = Files.writeString(dir.resolve("runs.txt"), lines.toString());
  }

  @AfterEach
  void tearDown() throws Exception {
    for (ChildJvm w : workers) {
      w.kill();
    }
    services.forEach(ReferenceService::close);
    PgServer.dropSchema(PgServer.SHARED_URL, schema);
  }

  private ChildJvm worker(String crashAt, int visit, long ttlMs) throws Exception {
    ChildJvm w =
        WorkerJvm.start(
            dir.resolve("workers.log"),
            BatchedCommitWorker.class,
            List.of(
                PgServer.SHARED_URL,
                schema,
                Long.toString(SEED),
                crashAt,
                Integer.toString(visit),
                Long.toString(ttlMs),
                runsFile.toString()));
    workers.add(w);
    return w;
  }

  /** Reads lines until one starts with {@code prefix} (or fails after {@code ms}). */
  private static String await(ChildJvm w, String prefix, long ms) throws Exception {
    long deadline = System.currentTimeMillis() + ms;
    while (System.currentTimeMillis() < deadline) {
      String line = w.next(500);
      if (line != null && line.startsWith(prefix)) {
        return line;
      }
      if (line == null && w.ended()) {
        break;
      }
    }
    throw new AssertionError("no '" + prefix + "' line; the worker printed " + w.seen());
  }

  private void killIn(CrashPoint window) throws Exception {
    ChildJvm w = worker(window.name(), 3, 2_000);
    assertThat(await(w, "SEAM", 90_000)).isEqualTo("SEAM " + window);
    w.kill();
  }

  /** A fresh worker drives every run to its end; then each run is judged against its ledger. */
  private Tally recoverAndJudge() throws Exception {
    ChildJvm w = worker("none", 0, 2_000);
    Set<String> ended = new HashSet<>();
    long deadline = System.currentTimeMillis() + 150_000;
    while (ended.size() < RUNS && System.currentTimeMillis() < deadline) {
      String line = w.next(500);
      if (line == null) {
        assertThat(w.ended()).as("recovery worker died: %s", w.seen()).isFalse();
        continue;
      }
      assertThat(line).as("recovery worker").doesNotStartWith("ERROR");
      if (line.startsWith("END ")) {
        ended.add(line.split(" ")[1]);
      }
    }
    assertThat(ended).as("runs ended after recovery").hasSize(RUNS);
    assertThat(w.awaitExit(30_000)).isTrue();
    Tally t = new Tally();
    try (JdbcStore supervisor =
        JdbcStore.open(
            PgServer.as(PgServer.SHARED_URL, schema, PgServer.OWNER, 2), PgServer.options())) {
      for (RunVerdict.RunSpec spec : specs) {
        RunVerdict.judge(SEED, supervisor, spec, dir.resolve(spec.id() + ".db"), t);
      }
    }
    assertThat(t.failures()).isEmpty();
    assertThat(t.get("completed")).isEqualTo(RUNS);
    assertThat(t.get("receipts_reconciled")).isEqualTo(3L * RUNS);
    return t;
  }

  @Test
  void killedBeforeTheBatchedCallIsSentEveryRunRecoversWithEachEffectOnce() throws Exception {
    killIn(CrashPoint.STORE_BEFORE_BATCHED_COMMIT);
    recoverAndJudge();
  }

  @Test
  void killedAfterTheBatchedCallReturnedEveryRunRecoversWithEachEffectOnce() throws Exception {
    killIn(CrashPoint.STORE_AFTER_BATCHED_COMMIT);
    recoverAndJudge();
  }

  @Test
  void killedWhileTheBatchedCallIsInFlightItsRunsCommitTogetherAndRecover() throws Exception {
    inFlight(false);
  }

  @Test
  void killedWhileTheBatchedCallIsInFlightAndTheServerDropsItNoRunOfItCommits() throws Exception {
    inFlight(true);
  }

  /**
   * Holds every run's mark row (one connection each) until a batched call waits on one of them; a
   * lone call that waits first is let through. Then SIGKILLs the worker with the call in flight and
   * either terminates the orphaned server call or lets it finish, and checks all-or-none.
   */
  private void inFlight(boolean terminate) throws Exception {
    // Leases outlive the lock wait and the kill, so the held call is judged under live leases.
    ChildJvm w = worker("none", 0, 8_000);
    Set<String> stepped = new HashSet<>();
    long deadline = System.currentTimeMillis() + 90_000;
    while (stepped.size() < RUNS && System.currentTimeMillis() < deadline) {
      String line = w.next(500);
      if (line != null && line.startsWith("STEP ")) {
        stepped.add(line.split(" ")[1]);
      }
    }
    assertThat(stepped).as("every run has a mark").hasSize(RUNS);
    Map<Integer, Connection> locks = new HashMap<>();
    try {
      for (RunVerdict.RunSpec spec : specs) {
        Connection c = PgServer.connect(PgServer.SHARED_URL, PgServer.ADMIN);
        c.setAutoCommit(false);
        try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT pg_backend_pid() FROM "
                    + schema
                    + ".ratchet_marks WHERE run_id = ? FOR UPDATE")) {
          ps.setString(1, spec.id());
          try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            locks.put(rs.getInt(1), c);
          }
        }
      }
      int batchPid = awaitBlockedBatch(locks);
      Map<String, Long> before = generations();
      w.kill();
      if (terminate) {
        try (Connection admin = PgServer.connect(PgServer.SHARED_URL, PgServer.ADMIN)) {
          PgServer.exec(admin, "SELECT pg_terminate_backend(" + batchPid + ")");
        }
        awaitGone(batchPid);
      }
      for (Connection c : locks.values()) {
        c.commit();
      }
      awaitGone(batchPid);
      Map<String, Long> after = generations();
      long advanced = specs.stream().filter(s -> after.get(s.id()) > before.get(s.id())).count();
      if (terminate) {
        assertThat(advanced)
            .as("runs committed by a dropped call: %s -> %s", before, after)
            .isZero();
      } else {
        assertThat(advanced)
            .as("runs committed by the orphaned call: %s -> %s", before, after)
            .isGreaterThanOrEqualTo(2);
      }
    } finally {
      for (Connection c : locks.values()) {
        c.close();
      }
    }
    recoverAndJudge();
  }

  /** The pid of a worker backend whose batched call waits on one of {@code locks}. */
  private int awaitBlockedBatch(Map<Integer, Connection> locks) throws Exception {
    long deadline = System.currentTimeMillis() + 60_000;
    try (Connection admin = PgServer.connect(PgServer.SHARED_URL, PgServer.ADMIN);
        PreparedStatement ps =
            admin.prepareStatement(
                "SELECT pid, query, pg_blocking_pids(pid) FROM pg_stat_activity"
                    + " WHERE usename = ? AND wait_event_type = 'Lock'")) {
      ps.setString(1, PgServer.WORKER);
      while (System.currentTimeMillis() < deadline) {
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            if (rs.getString(2).contains("ratchet_commit_batch")) {
              return rs.getInt(1);
            }
            // A lone commit waits: let it through; the runs queued behind it form a batch.
            for (Integer blocker : (Integer[]) rs.getArray(3).getArray()) {
              Connection c = locks.get(blocker);
              if (c != null) {
                c.commit();
              }
            }
          }
        }
        LockSupport.parkNanos(2_000_000);
      }
    }
    throw new AssertionError("no batched call waited on the held rows within 60 s");
  }

  private void awaitGone(int pid) throws Exception {
    long deadline = System.currentTimeMillis() + 30_000;
    try (Connection admin = PgServer.connect(PgServer.SHARED_URL, PgServer.ADMIN);
        PreparedStatement ps =
            admin.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE pid = ?")) {
      ps.setInt(1, pid);
      while (System.currentTimeMillis() < deadline) {
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          if (rs.getInt(1) == 0) {
            return;
          }
        }
        LockSupport.parkNanos(10_000_000);
      }
    }
    throw new AssertionError("backend " + pid + " still there after 30 s");
  }

  private Map<String, Long> generations() {
    Map<String, Long> out = new HashMap<>();
    try (JdbcStore s =
        JdbcStore.open(
            PgServer.as(PgServer.SHARED_URL, schema, PgServer.OWNER, 1), PgServer.options())) {
      for (RunVerdict.RunSpec spec : specs) {
        out.put(
            spec.id(),
            s.load(spec.task().taskId(), spec.id()).map(StoredRun::generation).orElse(0L));
      }
    }
    return out;
  }
}
