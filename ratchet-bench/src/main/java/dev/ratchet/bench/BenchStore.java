package dev.ratchet.bench;

import dev.ratchet.Ratchet;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.jdbc.CommitStats;
import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.StoreOptions;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.seam.Entropy;
import dev.ratchet.seam.Seams;
import dev.ratchet.sign.Ed25519;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.SecretKey;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.sign.TrustRoot;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.LeaseStore;
import dev.ratchet.testkit.InMemoryStore;
import dev.ratchet.testkit.InMemoryWorkspace;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A durable store under test with the runtime on top, configured as production would be: the system
 * clock, secure entropy, fresh 32-byte keys, a 30 s lease, {@code synchronous=FULL}. The store is
 * wrapped in counters so every figure can say how many commits and transactions it took.
 */
final class BenchStore implements AutoCloseable {
  static final String PATH = "state.txt";
  private static final long THIRTY_DAYS_MS = Duration.ofDays(30).toMillis();

  final InstantSource clock;
  final JdbcStore jdbc; // null for the in-memory store
  final CountingStore store;
  final CountingLeases leases;
  final TaskSpec task;
  final Ratchet ratchet;
  final KeyRing keys;
  private final int contentChars;

  BenchStore(Database db, boolean groupCommit, int contentChars) {
    this(Seams.systemClock(), db, groupCommit, contentChars);
  }

  private BenchStore(InstantSource clock, Database db, boolean groupCommit, int contentChars) {
    this(
        clock,
        JdbcStore.open(
            db,
            StoreOptions.defaults(clock)
                .withOpenMode(
                    db.kind() == Database.Kind.SQLITE ? OpenMode.CREATE : OpenMode.MUST_EXIST)
                .withGroupCommit(groupCommit)),
        contentChars);
  }

  private BenchStore(InstantSource clock, JdbcStore jdbc, int contentChars) {
    this(clock, jdbc, jdbc, jdbc, contentChars);
  }

  private BenchStore(
      InstantSource clock,
      JdbcStore jdbc,
      CheckpointStore checkpoints,
      LeaseStore leaseStore,
      int contentChars) {
    this.clock = clock;
    this.contentChars = contentChars;
    this.jdbc = jdbc;
    this.store = new CountingStore(checkpoints);
    this.leases = new CountingLeases(leaseStore);
    this.task = task();
    Entropy entropy = Seams.secureEntropy();
    this.keys = KeyRing.of(SecretKey.of("bench-ckpt-1", entropy.bytes(32), ErrorCode.CHECKPOINT));
    this.ratchet =
        Ratchet.builder()
            .store(store)
            .leases(leases)
            .checkpointKeys(keys)
            .approvers(
                TrustRoot.approvers(
                    List.of(SigningKey.of("approver", Ed25519.generate(entropy)).trusted())))
            .reviewers(
                TrustRoot.reviewers(
                    List.of(SigningKey.of("reviewer", Ed25519.generate(entropy)).trusted())))
            .clock(clock)
            .entropy(entropy)
            .workerId("bench-worker")
            .leaseTtl(Duration.ofSeconds(30))
            .build();
  }

  /**
   * The runtime on the testkit's in-memory store: no I/O at all, so a write step costs only the
   * runtime's own CPU (validation, canonical JSON, signing, the adapter) and the store's copying.
   */
  static BenchStore inMemory(int contentChars) {
    InstantSource clock = Seams.systemClock();
    InMemoryStore memory = new InMemoryStore(clock);
    return new BenchStore(clock, null, memory, memory, contentChars);
  }

  /** A task that may write one file, with budgets far above any benchmark (SPEC D6: 10^6 steps). */
  static TaskSpec task() {
    return new TaskSpec(
        "bench",
        "v1",
        "bench-policy",
        "v1",
        InMemoryWorkspace.NAMESPACE,
        Set.of("workspace.write"),
        Set.of("write_file"),
        Set.of(PATH),
        Set.of(),
        new Budgets(
            Budgets.MAX_PROPOSALS_CAP, Budgets.MAX_STEPS_CAP, THIRTY_DAYS_MS, 1_000_000_000L),
        JsonObject.builder().put("files", JsonObject.builder().put(PATH, "").build()).build(),
        JsonObject.builder().put("expected_files", JsonObject.EMPTY).build());
  }

  /** A fresh environment of its own for one run. */
  InMemoryWorkspace workspace(String name) {
    return new InMemoryWorkspace("ws-" + name, clock, Map.of(PATH, ""));
  }

  /** Starts a run (lease, observation, generation 1) on its own environment. */
  Driver start(String runId) {
    return start(runId, workspace(runId));
  }

  Driver start(String runId, InMemoryWorkspace ws) {
    return new Driver(this, runId, ws, ratchet.start(task, runId, ws), contentChars);
  }

  Counts counts() {
    CommitStats s = jdbc == null ? new CommitStats(0, 0, 0, 0) : jdbc.stats();
    return new Counts(
        store.commits(),
        store.checkpointBytes(),
        store.records(),
        store.recordBytes(),
        s.transactions(),
        leases.writes(),
        store.reads() + leases.checks(),
        store.commitNanos(),
        store.readNanos() + leases.nanos());
  }

  @Override
  public void close() {
    store.close();
    if (jdbc != null) {
      jdbc.close();
    }
  }

  /** Cumulative counters; {@link #minus} gives what one phase did. */
  record Counts(
      long commits,
      long checkpointBytes,
      long records,
      long recordBytes,
      long transactions,
      long leaseWrites,
      long reads,
      long commitNanos,
      long readNanos) {
    Counts minus(Counts earlier) {
      return new Counts(
          commits - earlier.commits,
          checkpointBytes - earlier.checkpointBytes,
          records - earlier.records,
          recordBytes - earlier.recordBytes,
          transactions - earlier.transactions,
          leaseWrites - earlier.leaseWrites,
          reads - earlier.reads,
          commitNanos - earlier.commitNanos,
          readNanos - earlier.readNanos);
    }

    Counts plus(Counts other) {
      return new Counts(
          commits + other.commits,
          checkpointBytes + other.checkpointBytes,
          records + other.records,
          recordBytes + other.recordBytes,
          transactions + other.transactions,
          leaseWrites + other.leaseWrites,
          reads + other.reads,
          commitNanos + other.commitNanos,
          readNanos + other.readNanos);
    }

    static final Counts ZERO = new Counts(0, 0, 0, 0, 0, 0, 0, 0, 0);

    double meanCheckpointBytes() {
      return commits == 0 ? Double.NaN : (double) checkpointBytes / commits;
    }

    /** Records per commit, rounded, at least 1: the shape of a step the baselines copy. */
    int recordsPerCommit() {
      return (int) Math.max(1, Math.round((double) records / Math.max(1, commits)));
    }

    /** The mean size of a record's body in bytes (0 with no records). */
    int meanRecordBytes() {
      return (int) (recordBytes / Math.max(1, records));
    }
  }
}
