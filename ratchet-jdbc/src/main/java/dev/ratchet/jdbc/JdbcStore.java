package dev.ratchet.jdbc;

import dev.ratchet.jdbc.internal.Committer;
import dev.ratchet.jdbc.internal.GroupCommitter;
import dev.ratchet.jdbc.internal.Holdings;
import dev.ratchet.jdbc.internal.Loader;
import dev.ratchet.jdbc.internal.Schedule;
import dev.ratchet.jdbc.internal.Side;
import dev.ratchet.jdbc.internal.SqlWork;
import dev.ratchet.jdbc.internal.Submissions;
import dev.ratchet.jdbc.internal.Tables;
import dev.ratchet.jdbc.internal.Wakes;
import dev.ratchet.json.Text;
import dev.ratchet.schedule.Claim;
import dev.ratchet.schedule.RunnableListener;
import dev.ratchet.schedule.SchedulingStore;
import dev.ratchet.schedule.SignedSubmission;
import dev.ratchet.seam.Entropy;
import dev.ratchet.seam.Seams;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.Fence;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseToken;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import dev.ratchet.store.StoredRun;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The durable {@link CheckpointStore} and {@link SchedulingStore} (with its leases) on JDBC: SQLite
 * or PostgreSQL.
 *
 * <p><b>Design.</b> A store talks to one database, or to two in split mode: the <em>mark side</em>
 * holds the high-water marks, the growing sets, the leases and the inbox; the <em>content side</em>
 * holds checkpoint content addressed by digest. On SQLite each side has one writer connection
 * behind a lock (SQLite serialises writers anyway) and a few readers (WAL); on PostgreSQL a pool,
 * so commits of many runs proceed side by side. A commit is one compare-and-set whose row count is
 * the verdict (1 won, 0 refused, more is a bug), made inside one transaction with the records it
 * appends and the content it points at; in split mode the content is made durable first and the
 * mark is compared and set after it, so a crash in between leaves the previous generation loadable.
 * {@link #load} re-hashes the content against the mark's digest, so edited, swapped or rolled-back
 * content fails closed. With group commit one writer thread commits the queued requests of many
 * runs in one transaction, each in a savepoint (on SQLite with the batch's statements shared and no
 * savepoint, {@code SqliteBatch}). See {@code docs/store.md}.
 *
 * <p>On PostgreSQL the compare-and-set and every lease change are {@code SECURITY DEFINER}
 * functions that judge the lease on the database clock, so a worker connected as a role without
 * UPDATE on the mark table can move a mark only forward by one, and only under its live lease
 * ({@link PostgresAccess}).
 *
 * <p>Every failure of the database itself is {@code STORE_UNAVAILABLE}; a store is never mistaken
 * for an empty one. Thread-safe.
 */
public final class JdbcStore implements CheckpointStore, SchedulingStore {
  /** The largest page {@link #records} returns. */
  public static final int MAX_PAGE = 10_000;

  private final Side marks;
  private final Side content;
  private final StoreOptions options;
  private final Committer committer;
  private final GroupCommitter group;

  /** Where lease tokens come from (D21): the randomness seam. */
  private final Entropy entropy = Seams.secureEntropy();

  private JdbcStore(Side marks, Side content, StoreOptions options) {
    this.marks = marks;
    this.content = content;
    this.options = options;
    this.committer = new Committer(marks, content, options);
    this.group =
        options.groupCommit()
            ? new GroupCommitter(committer, options.maxBatch(), marks.describe())
            : null;
  }

  /** Opens (with {@link OpenMode#CREATE}: creates) a store in one database. */
  public static JdbcStore open(Database db, StoreOptions options) {
    Objects.requireNonNull(db, "db");
    Objects.requireNonNull(options, "options");
    Side side = Side.open(db, options);
    return new JdbcStore(side, side, options);
  }

  /**
   * Opens a split store: marks, sets, leases and inbox in {@code markDb}, checkpoint content in
   * {@code contentDb} (SPEC D7). Restoring an older copy of the content database is then refused at
   * load, because the mark names content the copy does not hold.
   */
  public static JdbcStore split(Database markDb, Database contentDb, StoreOptions options) {
    Objects.requireNonNull(markDb, "markDb");
    Objects.requireNonNull(contentDb, "contentDb");
    Objects.requireNonNull(options, "options");
    Side m = Side.open(markDb, options);
    try {
      return new JdbcStore(m, Side.open(contentDb, options), options);
    } catch (RuntimeException e) {
      m.close();
      throw e;
    }
  }

  public StoreOptions options() {
    return options;
  }

  /** The schema version of the mark side (and of the content side: both run the same code). */
  public int schemaVersion() {
    return marks.schemaVersion();
  }

  @Override
  public CommitResult commit(CommitRequest request) {
    Objects.requireNonNull(request, "request");
    if (group != null) {
      return group.commit(request);
    }
    return committer.commit(List.of(request)).get(0).resultOrThrow(false);
  }

  @Override
  public Optional<StoredRun> load(String taskId, String runId) {
    return Loader.load(marks, content, taskId, runId);
  }

  @Override
  public Optional<StoredRecord> find(String taskId, String runId, RecordSet set, String key) {
    Objects.requireNonNull(set, "set");
    Objects.requireNonNull(key, "key");
    return marks.readStatement("finding a record", c -> Tables.find(c, taskId, runId, set, key));
  }

  @Override
  public List<StoredRecord> records(
      String taskId, String runId, RecordSet set, long fromSequence, int limit) {
    Objects.requireNonNull(set, "set");
    if (fromSequence < 1 || limit < 1) {
      return List.of();
    }
    int page = Math.min(limit, MAX_PAGE);
    return marks.read(
        "reading records", c -> Tables.page(c, taskId, runId, set, fromSequence, page));
  }

  @Override
  public List<RunRef> runs() {
    return marks.read("listing runs", Tables::runs);
  }

  @Override
  public List<RunRef> runs(String runId) {
    Objects.requireNonNull(runId, "runId");
    return marks.read("finding a run", c -> Tables.runs(c, runId));
  }

  @Override
  public void deliver(String taskId, String runId, InboxItem item) {
    Objects.requireNonNull(item, "item");
    marks.write(
        "delivering to the inbox",
        c -> {
          Tables.deliver(marks, c, taskId, runId, item);
          return null;
        });
  }

  @Override
  public List<InboxItem> inbox(String taskId, String runId) {
    return marks.read("reading the inbox", c -> Tables.inbox(c, taskId, runId));
  }

  @Override
  public Optional<dev.ratchet.store.CheckpointEnvelope> retained(
      String taskId, String runId, long generation) {
    return checkpoints(taskId, runId).stream()
        .filter(c -> c.generation() == generation)
        .findFirst()
        .map(c -> new dev.ratchet.store.CheckpointEnvelope(c.checkpoint()));
  }

  /** The checkpoints the run still holds, newest first: the current one and the retained older. */
  public List<RetainedCheckpoint> checkpoints(String taskId, String runId) {
    return Tables.retained(marks, content, taskId, runId);
  }

  /** What the writer has done since the store was opened. */
  public CommitStats stats() {
    return committer.stats();
  }

  /** Requests waiting for the group-commit writer; 0 without group commit (for tests). */
  int queuedCommits() {
    return group == null ? 0 : group.queued();
  }

  // ---- scheduling (D24, ADR 0060, 0064): a hint for workers; the signed checkpoint decides ----

  @Override
  public void schedule(String taskId, String runId, String driver, String taskRef) {
    Text.require("task_id", taskId);
    Text.require("run_id", runId);
    Text.require("driver", driver);
    Text.require("task_ref", taskRef);
    marks.write(
        "scheduling a run",
        c -> {
          Schedule.schedule(marks, c, taskId, runId, driver, taskRef);
          return null;
        });
  }

  /**
   * {@inheritDoc} On PostgreSQL through {@code ratchet_submit}, the operator role's function
   * (schema version 6, ADR 0061).
   */
  @Override
  public void submit(String taskId, String runId, String driver, SignedSubmission submission) {
    Text.require("task_id", taskId);
    Text.require("run_id", runId);
    Text.require("driver", driver);
    Objects.requireNonNull(submission, "submission");
    submission.requireStorable();
    marks.write(
        "submitting a run",
        c -> {
          Submissions.submit(marks, c, taskId, runId, driver, submission);
          return null;
        });
  }

  @Override
  public java.util.List<dev.ratchet.schedule.ScheduledRun> scheduled() {
    return marks.read("listing scheduled runs", Schedule::list);
  }

  @Override
  public Optional<SignedSubmission> submission(String taskId, String runId) {
    return marks.read("reading a submitted task", c -> Submissions.envelope(c, taskId, runId));
  }

  /**
   * On PostgreSQL a new dedicated connection that {@code LISTEN}s to {@code ratchet_runnable};
   * empty on SQLite, whose one worker process polls.
   */
  @Override
  public Optional<RunnableListener> listen() {
    return dev.ratchet.jdbc.internal.PgListener.forStore(marks);
  }

  /** {@inheritDoc} On PostgreSQL {@code ratchet_claim}: {@code FOR UPDATE SKIP LOCKED}. */
  @Override
  public Optional<Claim> claim(String owner, Duration ttl) {
    Text.require("owner", owner);
    Objects.requireNonNull(ttl, "ttl");
    LeaseToken token = LeaseToken.generate(entropy);
    SqlWork<Optional<Claim>> work = c -> Schedule.claim(marks, c, owner, ttl, token);
    return Schedule.oneCall(marks)
        ? marks.statement("claiming a run", work)
        : marks.write("claiming a run", work);
  }

  /** {@inheritDoc} On PostgreSQL {@code ratchet_claim_held} (version 20). */
  @Override
  public Optional<Claim> claimHeld(String taskId, String runId, Lease lease) {
    Text.require("task_id", taskId);
    Text.require("run_id", runId);
    Objects.requireNonNull(lease, "lease");
    return marks.write(
        "claiming a run's row under its lease",
        c -> Schedule.claimHeld(marks, c, taskId, runId, lease));
  }

  /**
   * {@inheritDoc} On PostgreSQL {@code ratchet_park}, or {@code ratchet_park_with_reason} (version
   * 18) with a reason.
   */
  @Override
  public boolean park(Claim claim, Lease lease, Instant wakeAt, String reason) {
    Objects.requireNonNull(claim, "claim");
    Objects.requireNonNull(lease, "lease");
    String why = reason(reason);
    return marks.write("parking a run", c -> Schedule.park(marks, c, claim, lease, wakeAt, why));
  }

  /**
   * {@inheritDoc} On PostgreSQL {@code ratchet_finish}, or {@code ratchet_finish_with_reason}
   * (version 18) with a reason.
   */
  @Override
  public void finish(Claim claim, Lease lease, String reason) {
    Objects.requireNonNull(claim, "claim");
    Objects.requireNonNull(lease, "lease");
    String why = reason(reason);
    marks.write(
        "finishing a run",
        c -> {
          Schedule.finish(marks, c, claim, lease, why);
          return null;
        });
  }

  /** A row's reason: null, or non-blank text cut to its longest length. */
  private static String reason(String reason) {
    if (reason != null && reason.isBlank()) {
      throw dev.ratchet.error.RatchetException.contract(
          "reason: must not be blank (null for none)");
    }
    return dev.ratchet.schedule.ScheduledRun.fitReason(reason);
  }

  /**
   * {@inheritDoc} On PostgreSQL one call ({@code ratchet_finish_release}, version 15): one round
   * trip instead of two transactions.
   */
  @Override
  public void finishAndRelease(Claim claim, Lease lease) {
    Objects.requireNonNull(claim, "claim");
    Objects.requireNonNull(lease, "lease");
    SqlWork<Void> work =
        c -> {
          Schedule.finishAndRelease(marks, c, claim, lease);
          return null;
        };
    if (Schedule.oneCall(marks)) {
      marks.statement("finishing a run", work);
    } else {
      marks.write("finishing a run", work);
    }
  }

  /**
   * {@inheritDoc} On PostgreSQL through {@code ratchet_wake_waiting}, a function of the operator
   * and worker roles (ADR 0053).
   */
  @Override
  public int wakeWaiting() {
    return marks.write("waking waiting runs", c -> Wakes.wakeWaiting(marks, c));
  }

  // ---- leases (D8): judged on the injected clock (SQLite) or the database clock (PostgreSQL) ----

  @Override
  public Optional<Lease> acquire(String runId, String owner, Duration ttl) {
    return grant(runId, owner, ttl, false);
  }

  @Override
  public Optional<Lease> takeOver(String runId, String owner, Duration ttl) {
    return grant(runId, owner, ttl, true);
  }

  private Optional<Lease> grant(String runId, String owner, Duration ttl, boolean stealExpired) {
    Text.require("run_id", runId);
    Text.require("owner", owner);
    Objects.requireNonNull(ttl, "ttl");
    LeaseToken token = LeaseToken.generate(entropy);
    return marks.write(
        "granting a lease", c -> Tables.grant(marks, c, runId, owner, ttl, stealExpired, token));
  }

  @Override
  public Lease renew(Lease lease, Duration ttl) {
    Objects.requireNonNull(lease, "lease");
    Objects.requireNonNull(ttl, "ttl");
    return marks.write("renewing a lease", c -> Tables.renew(marks, c, lease, ttl));
  }

  @Override
  public void release(Lease lease) {
    Objects.requireNonNull(lease, "lease");
    marks.write(
        "releasing a lease",
        c -> {
          Tables.release(marks, c, lease);
          return null;
        });
  }

  @Override
  public Optional<Lease> current(String runId) {
    return marks.read("reading a lease", c -> Tables.lease(c, runId));
  }

  @Override
  public void check(Fence fence) {
    Objects.requireNonNull(fence, "fence");
    marks.read(
        "checking a lease",
        c -> {
          Tables.check(c, fence, marks.now(c));
          return null;
        });
  }

  // ---- what a store over several databases asks of each (issue 44, ShardedStore) ----

  /** True when this database holds the run: its lease, its mark or its scheduling row. */
  public boolean holds(String runId) {
    Text.require("run_id", runId);
    return marks.read("finding a run's database", c -> Holdings.holds(c, runId));
  }

  /**
   * When the oldest claimable row was last touched, on the store's clock; empty when nothing is
   * claimable. A read: what a claim across databases uses to go to the longest-waiting run first.
   */
  public Optional<Instant> oldestClaimable() {
    return marks
        .read("reading the oldest claimable row", c -> Holdings.oldestClaimable(marks, c))
        .map(Instant::ofEpochMilli);
  }

  /** Stops the group-commit writer (failing what is still queued) and closes every connection. */
  @Override
  public void close() {
    try {
      if (group != null) {
        group.close();
      }
    } finally {
      marks.close();
      if (content != marks) {
        content.close();
      }
    }
  }
}
