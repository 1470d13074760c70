package dev.ratchet.jdbc;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Text;
import dev.ratchet.schedule.Claim;
import dev.ratchet.schedule.RunnableListener;
import dev.ratchet.schedule.ScheduledRun;
import dev.ratchet.schedule.SchedulingStore;
import dev.ratchet.schedule.SignedSubmission;
import dev.ratchet.seam.MonotonicClock;
import dev.ratchet.seam.Seams;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.Fence;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.Lease;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import dev.ratchet.store.StoredRun;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Runs spread over several databases, each a {@link JdbcStore} (issue 44, ADR 0140; {@code
 * docs/scaling.md}).
 *
 * <p><b>Design.</b> A run is Ratchet's unit of consistency: its checkpoint, records, lease, inbox
 * and scheduling row never need another run's, so each run lives wholly in one cluster and every
 * call about it goes there — no transaction ever spans two. A new run is <em>placed</em> once, when
 * it is first created (submitted, scheduled, or its lease first granted), on the cluster whose name
 * ranks first for its run id by rendezvous hashing; from then on it is found where its rows are
 * ({@link JdbcStore#holds}), never recomputed, so a change of the cluster list moves no run. What
 * was found is remembered for the life of the store. A claim asks every cluster that is not resting
 * for its oldest claimable row and claims from the one whose row waited longest, so no cluster's
 * runs starve behind another's; listings ({@link #runs()}, {@link #scheduled()}) read every
 * cluster.
 *
 * <p><b>A cluster that is down</b> makes only its runs wait: its calls fail with {@code
 * STORE_UNAVAILABLE} naming it, claims skip it for a short rest, its store is opened again on the
 * next use, and a run looked up by id is reported unavailable (never missing) when it is on none of
 * the reachable clusters and some cluster cannot be reached. A new run may still be created while
 * another cluster is down, as long as its own cluster is up: with one cluster list, a run id is
 * only ever placed on its first-ranked cluster. Listings fail closed when any cluster is
 * unreachable.
 *
 * <p>Keys and trust roots are not in the store: the runtime and the worker hold one set for every
 * cluster. Thread-safe.
 */
public final class ShardedStore implements CheckpointStore, SchedulingStore {
  /** Remembered placements before the map starts again (they are found again by one lookup). */
  private static final int REMEMBERED = 100_000;

  private final List<ClusterMember> members;
  private final Map<String, ClusterMember> homes = new ConcurrentHashMap<>();
  private final AtomicInteger turn = new AtomicInteger();
  private final MonotonicClock clock;

  private ShardedStore(List<ClusterMember> members, MonotonicClock clock) {
    this.members = List.copyOf(members);
    this.clock = clock;
  }

  /**
   * Opens a store over {@code clusters} (at least one; names unique). With {@link OpenMode#CREATE}
   * every cluster is created now and must be reachable; otherwise each is opened now if it can be
   * and on first use if not, and only when none can be opened is the store unavailable.
   */
  public static ShardedStore open(List<Cluster> clusters, StoreOptions options) {
    return open(clusters, options, Seams.systemMonotonic());
  }

  /** As {@link #open(List, StoreOptions)}, with the clock that times a failed cluster's rest. */
  static ShardedStore open(List<Cluster> clusters, StoreOptions options, MonotonicClock clock) {
    Objects.requireNonNull(clusters, "clusters");
    Objects.requireNonNull(options, "options");
    if (clusters.isEmpty()) {
      throw RatchetException.contract("clusters: at least one is needed");
    }
    Set<String> names = new HashSet<>();
    List<ClusterMember> members = new ArrayList<>();
    for (Cluster c : clusters) {
      if (!names.add(c.name())) {
        throw RatchetException.contract("clusters: the name '" + c.name() + "' is given twice");
      }
      members.add(new ClusterMember(c, options, clock));
    }
    ShardedStore store = new ShardedStore(members, clock);
    RatchetException last = null;
    int opened = 0;
    for (ClusterMember m : members) {
      try {
        m.call(s -> s);
        opened++;
      } catch (RatchetException e) {
        if (options.openMode() == OpenMode.CREATE || e.code() != ErrorCode.STORE_UNAVAILABLE) {
          store.close();
          throw e;
        }
        last = e;
      }
    }
    if (opened == 0) {
      store.close();
      throw last;
    }
    return store;
  }

  /** The clusters' names, in configuration order. */
  public List<String> clusters() {
    return members.stream().map(ClusterMember::name).toList();
  }

  /**
   * The cluster that holds the run, empty when none does; {@code STORE_UNAVAILABLE} when it is on
   * none of the reachable clusters and some cluster cannot be reached.
   */
  public Optional<String> clusterOf(String runId) {
    return locate(runId).map(ClusterMember::name);
  }

  /** The cluster a new run with this id is placed on (rendezvous hashing over the names). */
  public String placementOf(String runId) {
    return ranked(runId).get(0).name();
  }

  // ---- routing ----

  private Optional<ClusterMember> locate(String runId) {
    Text.require("run_id", runId);
    ClusterMember known = homes.get(runId);
    if (known != null) {
      return Optional.of(known);
    }
    List<String> unreachable = new ArrayList<>();
    RatchetException cause = null;
    for (ClusterMember m : ranked(runId)) {
      try {
        if (m.call(s -> s.holds(runId))) {
          remember(runId, m);
          return Optional.of(m);
        }
      } catch (RatchetException e) {
        if (e.code() != ErrorCode.STORE_UNAVAILABLE) {
          throw e;
        }
        unreachable.add(m.name());
        cause = cause == null ? e : cause;
      }
    }
    if (cause != null) {
      throw new RatchetException(
          ErrorCode.STORE_UNAVAILABLE,
          "run '"
              + runId
              + "' is on none of the reachable clusters, and "
              + String.join(", ", unreachable)
              + " cannot be reached: "
              + cause.getMessage(),
          cause);
    }
    return Optional.empty();
  }

  /**
   * The cluster of the run: where it is, or — when no cluster holds it — where it is placed. A call
   * that creates the run may go ahead while another cluster is down; any other fails closed.
   */
  private ClusterMember route(String runId, boolean creates) {
    ClusterMember target = ranked(runId).get(0);
    Optional<ClusterMember> found;
    try {
      found = locate(runId);
    } catch (RatchetException e) {
      if (!creates || e.code() != ErrorCode.STORE_UNAVAILABLE || target.resting()) {
        throw e;
      }
      found = Optional.empty();
    }
    return found.orElse(target);
  }

  private <T> T onRun(String runId, boolean creates, Function<JdbcStore, T> work) {
    ClusterMember m = route(runId, creates);
    T result = m.call(work);
    if (creates) {
      remember(runId, m);
    }
    return result;
  }

  private void remember(String runId, ClusterMember m) {
    if (homes.size() >= REMEMBERED) {
      homes.clear();
    }
    homes.put(runId, m);
  }

  /** Rendezvous (highest random weight) hashing: every cluster ranked for this run id. */
  private List<ClusterMember> ranked(String runId) {
    if (members.size() == 1) {
      return members;
    }
    List<ClusterMember> order = new ArrayList<>(members);
    order.sort(Comparator.comparingLong((ClusterMember m) -> weight(m.name(), runId)).reversed());
    return order;
  }

  private static long weight(String cluster, String runId) {
    // The first 64 bits of SHA-256 over "name NUL run id", unsigned: the same in every process.
    String hex = dev.ratchet.json.Canonical.sha256Hex(cluster + "\u0000" + runId);
    return Long.parseUnsignedLong(hex.substring(0, 16), 16) >>> 1;
  }

  /** Every cluster's answer, in configuration order; unavailable if any cluster is. */
  private <T> List<T> everywhere(Function<JdbcStore, List<T>> read) {
    List<T> out = new ArrayList<>();
    for (ClusterMember m : members) {
      out.addAll(m.call(read));
    }
    return out;
  }

  // ---- the checkpoint store ----

  @Override
  public CommitResult commit(CommitRequest request) {
    Objects.requireNonNull(request, "request");
    return onRun(
        request.scope().runId(), request.expectedGeneration() == 0, s -> s.commit(request));
  }

  @Override
  public Optional<StoredRun> load(String taskId, String runId) {
    return onRun(runId, false, s -> s.load(taskId, runId));
  }

  @Override
  public Optional<dev.ratchet.store.CheckpointEnvelope> retained(
      String taskId, String runId, long generation) {
    return onRun(runId, false, s -> s.retained(taskId, runId, generation));
  }

  @Override
  public Optional<StoredRecord> find(String taskId, String runId, RecordSet set, String key) {
    return onRun(runId, false, s -> s.find(taskId, runId, set, key));
  }

  @Override
  public List<StoredRecord> records(
      String taskId, String runId, RecordSet set, long fromSequence, int limit) {
    return onRun(runId, false, s -> s.records(taskId, runId, set, fromSequence, limit));
  }

  @Override
  public List<RunRef> runs() {
    return everywhere(JdbcStore::runs);
  }

  @Override
  public List<RunRef> runs(String runId) {
    Optional<ClusterMember> m = locate(runId);
    return m.isEmpty() ? List.of() : m.get().call(s -> s.runs(runId));
  }

  @Override
  public void deliver(String taskId, String runId, InboxItem item) {
    onRun(
        runId,
        false,
        s -> {
          s.deliver(taskId, runId, item);
          return null;
        });
  }

  @Override
  public List<InboxItem> inbox(String taskId, String runId) {
    return onRun(runId, false, s -> s.inbox(taskId, runId));
  }

  // ---- scheduling ----

  @Override
  public void schedule(String taskId, String runId, String driver, String taskRef) {
    onRun(
        runId,
        true,
        s -> {
          s.schedule(taskId, runId, driver, taskRef);
          return null;
        });
  }

  @Override
  public void submit(String taskId, String runId, String driver, SignedSubmission submission) {
    onRun(
        runId,
        true,
        s -> {
          s.submit(taskId, runId, driver, submission);
          return null;
        });
  }

  /** Every cluster's rows, least recently touched first. */
  @Override
  public List<ScheduledRun> scheduled() {
    List<ScheduledRun> all = everywhere(JdbcStore::scheduled);
    all.sort(
        Comparator.comparing(ScheduledRun::updatedAt)
            .thenComparing(ScheduledRun::taskId)
            .thenComparing(ScheduledRun::runId));
    return all;
  }

  @Override
  public Optional<SignedSubmission> submission(String taskId, String runId) {
    return onRun(runId, false, s -> s.submission(taskId, runId));
  }

  /**
   * {@inheritDoc} Across clusters: the clusters not resting after a failure are asked for their
   * oldest claimable row, and claimed from oldest first (ties in turn), so no cluster starves. A
   * cluster that fails is skipped; unavailable only when no cluster answered.
   */
  @Override
  public Optional<Claim> claim(String owner, Duration ttl) {
    Text.require("owner", owner);
    Objects.requireNonNull(ttl, "ttl");
    ShardedClaims claims = new ShardedClaims(inTurn());
    for (ClusterMember m : claims.candidates()) {
      Optional<Claim> c = claims.attempt(m, s -> s.claim(owner, ttl));
      if (c.isPresent()) {
        remember(c.get().runId(), m);
        return c;
      }
    }
    claims.requireAnAnswer();
    return Optional.empty();
  }

  /**
   * The clusters a claim may ask now ({@link ClusterMember#claimable}), starting one further each
   * call; when none may, all of them, so that a claim with every cluster down says so.
   */
  private List<ClusterMember> inTurn() {
    int n = members.size();
    int start = Math.floorMod(turn.getAndIncrement(), n);
    List<ClusterMember> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      ClusterMember m = members.get((start + i) % n);
      if (m.claimable()) {
        out.add(m);
      }
    }
    if (out.isEmpty()) {
      for (int i = 0; i < n; i++) {
        out.add(members.get((start + i) % n));
      }
    }
    return out;
  }

  /** Wakes every cluster's waiting runs; unavailable if any cluster is (trust roots are global). */
  @Override
  public int wakeWaiting() {
    return everywhere(s -> List.of(s.wakeWaiting())).stream().mapToInt(Integer::intValue).sum();
  }

  @Override
  public Optional<Claim> claimHeld(String taskId, String runId, Lease lease) {
    Objects.requireNonNull(lease, "lease");
    return onRun(runId, false, s -> s.claimHeld(taskId, runId, lease));
  }

  @Override
  public boolean park(Claim claim, Lease lease, Instant wakeAt, String reason) {
    Objects.requireNonNull(claim, "claim");
    return onRun(claim.runId(), false, s -> s.park(claim, lease, wakeAt, reason));
  }

  @Override
  public void finish(Claim claim, Lease lease, String reason) {
    Objects.requireNonNull(claim, "claim");
    onRun(
        claim.runId(),
        false,
        s -> {
          s.finish(claim, lease, reason);
          return null;
        });
  }

  /** Wake-ups from every PostgreSQL cluster; empty when no cluster can notify (SQLite). */
  @Override
  public Optional<RunnableListener> listen() {
    List<ClusterMember> notifying = members.stream().filter(ClusterMember::listens).toList();
    return notifying.isEmpty()
        ? Optional.empty()
        : Optional.of(new ShardListener(notifying, clock));
  }

  // ---- leases: the run's cluster judges them ----

  @Override
  public Optional<Lease> acquire(String runId, String owner, Duration ttl) {
    return onRun(runId, true, s -> s.acquire(runId, owner, ttl));
  }

  @Override
  public Optional<Lease> takeOver(String runId, String owner, Duration ttl) {
    return onRun(runId, true, s -> s.takeOver(runId, owner, ttl));
  }

  @Override
  public Lease renew(Lease lease, Duration ttl) {
    Objects.requireNonNull(lease, "lease");
    return onRun(lease.runId(), false, s -> s.renew(lease, ttl));
  }

  @Override
  public void release(Lease lease) {
    Objects.requireNonNull(lease, "lease");
    onRun(
        lease.runId(),
        false,
        s -> {
          s.release(lease);
          return null;
        });
  }

  @Override
  public Optional<Lease> current(String runId) {
    return onRun(runId, false, s -> s.current(runId));
  }

  @Override
  public void check(Fence fence) {
    Objects.requireNonNull(fence, "fence");
    onRun(
        fence.runId(),
        false,
        s -> {
          s.check(fence);
          return null;
        });
  }

  /** Closes every cluster's store. */
  @Override
  public void close() {
    for (ClusterMember m : members) {
      m.close();
    }
  }
}
