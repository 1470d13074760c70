package dev.ratchet.testkit;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Text;
import dev.ratchet.schedule.Claim;
import dev.ratchet.schedule.RunnableListener;
import dev.ratchet.schedule.SchedulingStore;
import dev.ratchet.schedule.SignedSubmission;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.seam.Entropy;
import dev.ratchet.seam.Seams;
import dev.ratchet.store.CheckpointEnvelope;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.Fence;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseStore;
import dev.ratchet.store.LeaseToken;
import dev.ratchet.store.RecordChain;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.RunScope;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRecord;
import dev.ratchet.store.StoredRun;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The reference {@link CheckpointStore}, {@link LeaseStore} and {@link SchedulingStore}: one lock,
 * plain maps, the same checks in the same order as the durable stores (generation, then fence, then
 * instance, then the chains of the appended records). Not durable; for tests and for explaining the
 * protocol. Its {@linkplain #listen() wake-ups} fire on every schedule, submission and delivery, as
 * PostgreSQL's notifications do.
 */
public final class InMemoryStore implements CheckpointStore, SchedulingStore {
  private final InstantSource clock;
  private final Entropy entropy;
  private final Map<String, RunData> runs = new LinkedHashMap<>();

  /** Content addressed by digest, kept apart from the marks as a split store keeps it (D7). */
  private final Map<String, String> contents = new HashMap<>();

  private volatile CrashSeam crashSeam = CrashSeam.NONE;
  private final Map<String, Lease> leases = new HashMap<>();

  /** The SHA-256 of each run's current lease token (D21): the token itself is never kept. */
  private final Map<String, String> tokenHashes = new HashMap<>();

  private final Map<String, Boolean> released = new HashMap<>();
  private final InMemorySchedule schedule = new InMemorySchedule();
  private final InMemoryWakeups wakeups = new InMemoryWakeups();
  private volatile boolean available = true;
  private volatile boolean listConsumedInboxItems;

  public InMemoryStore(InstantSource clock) {
    this(clock, Seams.secureEntropy());
  }

  /** A store whose lease tokens come from {@code entropy}. */
  public InMemoryStore(InstantSource clock, Entropy entropy) {
    this.clock = clock;
    this.entropy = entropy;
  }

  /**
   * Lists consumed inbox items again, as a store whose inbox filter an attacker removed would: the
   * worker must still refuse them (replayed nonce).
   */
  public void listConsumedInboxItems(boolean on) {
    this.listConsumedInboxItems = on;
  }

  /** Makes every call fail with {@code STORE_UNAVAILABLE}, as an unreachable database would. */
  public void setAvailable(boolean available) {
    this.available = available;
  }

  /**
   * Takes the crash seam for {@link CrashPoint#STORE_BETWEEN_CONTENT_AND_MARK}: the content is
   * written, the mark not yet moved.
   */
  public void crashSeam(CrashSeam seam) {
    this.crashSeam = seam;
  }

  /** The mark of a run plus its sets; the checkpoint text lives in {@code contents}. */
  private static final class RunData {
    RunScope scope;
    long generation;
    String digest;
    final Map<RecordSet, List<StoredRecord>> sets = new EnumMap<>(RecordSet.class);
    final Map<RecordSet, Map<String, StoredRecord>> byKey = new EnumMap<>(RecordSet.class);
    final Map<String, InboxItem> inbox = new LinkedHashMap<>();

    /** Every generation's digest: this store retains every checkpoint (a fork may go back). */
    final Map<Long, String> history = new HashMap<>();

    SetHead head(RecordSet s) {
      List<StoredRecord> list = sets.getOrDefault(s, List.of());
      return list.isEmpty()
          ? SetHead.EMPTY
          : new SetHead(list.size(), list.get(list.size() - 1).chain());
    }
  }

  private static String key(String taskId, String runId) {
    return taskId + "\u0000" + runId;
  }

  private void requireAvailable() {
    if (!available) {
      throw new RatchetException(ErrorCode.STORE_UNAVAILABLE, "in-memory store is unavailable");
    }
  }

  /** Forgets every generation of a run but the current one (a store's retention, for tests). */
  public synchronized void forgetOlder(String taskId, String runId) {
    RunData run = runs.get(key(taskId, runId));
    run.history.keySet().removeIf(g -> g != run.generation);
  }

  @Override
  public synchronized Optional<dev.ratchet.store.CheckpointEnvelope> retained(
      String taskId, String runId, long generation) {
    RunData run = runs.get(key(taskId, runId));
    String digest = run == null ? null : run.history.get(generation);
    return digest == null
        ? Optional.empty()
        : Optional.of(new dev.ratchet.store.CheckpointEnvelope(contents.get(digest)));
  }

  @Override
  public synchronized CommitResult commit(CommitRequest r) {
    requireAvailable();
    RunScope scope = r.scope();
    RunData run = runs.get(key(scope.taskId(), scope.runId()));
    long current = run == null ? 0 : run.generation;
    if (current != r.expectedGeneration()) {
      return new CommitResult.LostRace(current);
    }
    Optional<String> fenceProblem = fenceProblem(r.fence(), r.token());
    if (fenceProblem.isPresent()) {
      return new CommitResult.Fenced(fenceProblem.get());
    }
    if (run != null && !run.scope.environmentInstanceId().equals(scope.environmentInstanceId())) {
      return new CommitResult.Fenced("environment instance differs from the run's");
    }
    RunData target = run == null ? new RunData() : run;
    checkChains(target, r.records());
    String digest = Canonical.sha256Hex(r.checkpoint());
    contents.put(digest, r.checkpoint());
    crashSeam.reached(CrashPoint.STORE_BETWEEN_CONTENT_AND_MARK);
    if (run == null) {
      runs.put(key(scope.taskId(), scope.runId()), target);
    }
    target.scope = scope;
    target.generation = r.nextGeneration();
    target.digest = digest;
    target.history.put(target.generation, digest);
    for (StoredRecord rec : r.records()) {
      target.sets.computeIfAbsent(rec.set(), s -> new ArrayList<>()).add(rec);
      target.byKey.computeIfAbsent(rec.set(), s -> new HashMap<>()).put(rec.key(), rec);
    }
    return new CommitResult.Committed(target.generation);
  }

  /**
   * Refuses records that do not continue their set's chain or repeat a key; checked before any
   * write.
   */
  private static void checkChains(RunData run, List<StoredRecord> records) {
    Map<RecordSet, SetHead> heads = new EnumMap<>(RecordSet.class);
    Map<RecordSet, List<String>> newKeys = new EnumMap<>(RecordSet.class);
    for (StoredRecord rec : records) {
      SetHead h = heads.computeIfAbsent(rec.set(), run::head);
      String expected = RecordChain.next(h.head(), rec.set(), h.count() + 1, rec.key(), rec.body());
      if (rec.sequence() != h.count() + 1 || !expected.equals(rec.chain())) {
        throw RatchetException.contract(
            "record "
                + rec.set().wireName()
                + "#"
                + rec.sequence()
                + " does not continue its chain");
      }
      List<String> keys = newKeys.computeIfAbsent(rec.set(), s -> new ArrayList<>());
      if (run.byKey.getOrDefault(rec.set(), Map.of()).containsKey(rec.key())
          || keys.contains(rec.key())) {
        throw RatchetException.contract(
            "record " + rec.set().wireName() + " key '" + rec.key() + "' already exists");
      }
      keys.add(rec.key());
      heads.put(rec.set(), new SetHead(rec.sequence(), rec.chain()));
    }
  }

  @Override
  public synchronized Optional<StoredRun> load(String taskId, String runId) {
    requireAvailable();
    RunData run = runs.get(key(taskId, runId));
    if (run == null) {
      return Optional.empty();
    }
    Map<RecordSet, SetHead> heads = new EnumMap<>(RecordSet.class);
    for (RecordSet s : RecordSet.values()) {
      heads.put(s, run.head(s));
    }
    String checkpoint = contents.get(run.digest);
    if (checkpoint == null) {
      throw new RatchetException(
          ErrorCode.CHECKPOINT, "the mark points at content " + run.digest + " that is missing");
    }
    return Optional.of(
        new StoredRun(
            run.scope, run.generation, run.digest, new CheckpointEnvelope(checkpoint), heads));
  }

  @Override
  public synchronized Optional<StoredRecord> find(
      String taskId, String runId, RecordSet set, String key) {
    requireAvailable();
    RunData run = runs.get(key(taskId, runId));
    return run == null
        ? Optional.empty()
        : Optional.ofNullable(run.byKey.getOrDefault(set, Map.of()).get(key));
  }

  @Override
  public synchronized List<StoredRecord> records(
      String taskId, String runId, RecordSet set, long fromSequence, int limit) {
    requireAvailable();
    RunData run = runs.get(key(taskId, runId));
    if (run == null || fromSequence < 1) {
      return List.of();
    }
    List<StoredRecord> all = run.sets.getOrDefault(set, List.of());
    int from = (int) Math.min(all.size(), fromSequence - 1);
    int to = (int) Math.min(all.size(), (long) from + Math.max(0, limit));
    return List.copyOf(all.subList(from, to));
  }

  @Override
  public synchronized List<RunRef> runs() {
    requireAvailable();
    List<RunRef> out = new ArrayList<>();
    runs.values()
        .forEach(r -> out.add(new RunRef(r.scope.taskId(), r.scope.runId(), r.generation)));
    return out;
  }

  @Override
  public synchronized List<RunRef> runs(String runId) {
    requireAvailable();
    return runs().stream().filter(r -> r.runId().equals(runId)).toList();
  }

  @Override
  public synchronized void deliver(String taskId, String runId, InboxItem item) {
    requireAvailable();
    RunData run = runs.get(key(taskId, runId));
    if (run == null) {
      throw RatchetException.contract(
          "run '" + runId + "' of task '" + taskId + "' does not exist");
    }
    if (run.inbox.containsKey(item.nonce())
        || run.byKey.getOrDefault(RecordSet.NONCES, Map.of()).containsKey(item.nonce())) {
      throw new RatchetException(
          ErrorCode.APPROVAL, "nonce '" + item.nonce() + "' was already delivered to this run");
    }
    run.inbox.put(item.nonce(), item);
    schedule.delivered(taskId, runId);
    wakeups.wake();
  }

  @Override
  public synchronized List<InboxItem> inbox(String taskId, String runId) {
    requireAvailable();
    RunData run = runs.get(key(taskId, runId));
    if (run == null) {
      return List.of();
    }
    Map<String, StoredRecord> consumed = run.byKey.getOrDefault(RecordSet.NONCES, Map.of());
    return run.inbox.values().stream()
        .filter(i -> listConsumedInboxItems || !consumed.containsKey(i.nonce()))
        .toList();
  }

  // ---- scheduling (D24, ADR 0060, 0061): the same rows as the JDBC store's ----

  @Override
  public synchronized void schedule(String taskId, String runId, String driver, String taskRef) {
    requireAvailable();
    Text.require("task_id", taskId);
    Text.require("run_id", runId);
    Text.require("driver", driver);
    Text.require("task_ref", taskRef);
    schedule.schedule(taskId, runId, driver, taskRef, clock.millis());
    wakeups.wake();
  }

  @Override
  public synchronized void submit(
      String taskId, String runId, String driver, SignedSubmission submission) {
    requireAvailable();
    Text.require("task_id", taskId);
    Text.require("run_id", runId);
    Text.require("driver", driver);
    submission.requireStorable();
    if (runs.values().stream().anyMatch(r -> r.scope.runId().equals(runId))
        || schedule.uses(runId)) {
      throw RatchetException.contract(
          "run_id: run '" + runId + "' already exists or was submitted");
    }
    schedule.submit(taskId, runId, driver, submission, clock.millis());
    wakeups.wake();
  }

  @Override
  public synchronized List<dev.ratchet.schedule.ScheduledRun> scheduled() {
    requireAvailable();
    return schedule.scheduled();
  }

  @Override
  public synchronized Optional<SignedSubmission> submission(String taskId, String runId) {
    requireAvailable();
    return schedule.submission(taskId, runId);
  }

  @Override
  public synchronized Optional<Claim> claim(String owner, Duration ttl) {
    requireAvailable();
    Text.require("owner", owner);
    long now = clock.millis();
    Optional<String[]> row =
        schedule.claimable(
            now,
            runId -> {
              Lease held = leases.get(runId);
              return held != null
                  && !released.getOrDefault(runId, false)
                  && held.expiresAt().toEpochMilli() > now;
            },
            runId -> {
              Lease held = leases.get(runId);
              return held != null
                      && !released.getOrDefault(runId, false)
                      && held.expiresAt().toEpochMilli() <= now
                  ? held.expiresAt().toEpochMilli()
                  : null;
            });
    if (row.isEmpty()) {
      return Optional.empty();
    }
    String runId = row.get()[1];
    Lease lease = grant(runId, owner, ttl, leases.get(runId));
    return Optional.of(schedule.claimed(row.get()[0], runId, lease, now));
  }

  @Override
  public synchronized Optional<Claim> claimHeld(String taskId, String runId, Lease lease) {
    requireAvailable();
    requireHeld(lease);
    return schedule.claimHeld(taskId, runId, lease, clock.millis());
  }

  @Override
  public synchronized boolean park(Claim claim, Lease lease, Instant wakeAt, String reason) {
    requireAvailable();
    requireHeld(lease);
    return schedule.park(
        claim, wakeAt, dev.ratchet.schedule.ScheduledRun.fitReason(reason), clock.millis());
  }

  @Override
  public synchronized void finish(Claim claim, Lease lease, String reason) {
    requireAvailable();
    requireHeld(lease);
    schedule.finish(claim, dev.ratchet.schedule.ScheduledRun.fitReason(reason), clock.millis());
  }

  @Override
  public synchronized int wakeWaiting() {
    requireAvailable();
    int woken = schedule.wakeWaiting();
    wakeups.wake();
    return woken;
  }

  @Override
  public Optional<RunnableListener> listen() {
    requireAvailable();
    return Optional.of(wakeups.listener());
  }

  private void requireHeld(Lease lease) {
    fenceProblem(lease.fence(), lease.requireToken())
        .ifPresent(
            p -> {
              throw new RatchetException(ErrorCode.FENCED, p);
            });
  }

  // ---- leases (D8), judged on the injected clock ----

  @Override
  public synchronized Optional<Lease> acquire(String runId, String owner, Duration ttl) {
    requireAvailable();
    Lease held = leases.get(runId);
    if (held != null && !released.getOrDefault(runId, false)) {
      return Optional.empty();
    }
    return Optional.of(grant(runId, owner, ttl, held));
  }

  @Override
  public synchronized Optional<Lease> takeOver(String runId, String owner, Duration ttl) {
    requireAvailable();
    Lease held = leases.get(runId);
    boolean free =
        held == null
            || released.getOrDefault(runId, false)
            || !clock.instant().isBefore(held.expiresAt());
    return free ? Optional.of(grant(runId, owner, ttl, held)) : Optional.empty();
  }

  private Lease grant(String runId, String owner, Duration ttl, Lease previous) {
    long version = previous == null ? 1 : previous.version() + 1;
    LeaseToken token = LeaseToken.generate(entropy);
    Lease lease = new Lease(runId, owner, version, clock.instant().plus(ttl), token);
    leases.put(runId, lease.observed());
    tokenHashes.put(runId, token.hash());
    released.put(runId, false);
    return lease;
  }

  /**
   * Grants the run's lease to {@code owner} whatever holds it now, as a store edited underneath a
   * worker would: the current holder's renewals, commits, parks and finishes are refused from then
   * on (for tests of a lost lease).
   */
  public synchronized Lease grantElsewhere(String runId, String owner, Duration ttl) {
    return grant(runId, owner, ttl, leases.get(runId));
  }

  @Override
  public synchronized Lease renew(Lease lease, Duration ttl) {
    requireAvailable();
    requireHeld(lease);
    Lease renewed = lease.withExpiry(clock.instant().plus(ttl));
    leases.put(lease.runId(), renewed.observed());
    return renewed;
  }

  @Override
  public synchronized void release(Lease lease) {
    requireAvailable();
    Lease held = leases.get(lease.runId());
    if (held != null
        && held.fence().equals(lease.fence())
        && lease.held()
        && lease.token().matches(tokenHashes.get(lease.runId()))) {
      released.put(lease.runId(), true);
    }
  }

  @Override
  public synchronized Optional<Lease> current(String runId) {
    requireAvailable();
    return Optional.ofNullable(leases.get(runId));
  }

  @Override
  public synchronized void check(Fence fence) {
    requireAvailable();
    fenceProblem(fence)
        .ifPresent(
            p -> {
              throw new RatchetException(ErrorCode.FENCED, p);
            });
  }

  /** {@link #fenceProblem(Fence)}, and the token must match the current lease's hash (D21). */
  private Optional<String> fenceProblem(Fence fence, LeaseToken token) {
    Optional<String> p = fenceProblem(fence);
    if (p.isEmpty() && !token.matches(tokenHashes.get(fence.runId()))) {
      return Optional.of("lease token of run '" + fence.runId() + "' does not match the lease");
    }
    return p;
  }

  private Optional<String> fenceProblem(Fence fence) {
    Lease held = leases.get(fence.runId());
    if (held == null || released.getOrDefault(fence.runId(), false)) {
      return Optional.of("run '" + fence.runId() + "' is not leased");
    }
    if (!held.owner().equals(fence.owner()) || held.version() != fence.leaseVersion()) {
      return Optional.of(
          "lease of run '"
              + fence.runId()
              + "' is held by "
              + held.owner()
              + " v"
              + held.version()
              + ", not "
              + fence.owner()
              + " v"
              + fence.leaseVersion());
    }
    if (!clock.instant().isBefore(held.expiresAt())) {
      return Optional.of("lease of run '" + fence.runId() + "' expired at " + held.expiresAt());
    }
    return Optional.empty();
  }
}
