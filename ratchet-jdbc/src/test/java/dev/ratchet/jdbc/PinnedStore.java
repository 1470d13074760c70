package dev.ratchet.jdbc;

import dev.ratchet.schedule.Claim;
import dev.ratchet.schedule.RunnableListener;
import dev.ratchet.schedule.SchedulingStore;
import dev.ratchet.schedule.SignedSubmission;
import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.Fence;
import dev.ratchet.store.ForwardingCheckpointStore;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.Lease;
import dev.ratchet.store.StoredRun;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A PostgreSQL {@link JdbcStore} whose schema's database clock is pinned ({@link
 * PgSchema#pinClock}) to a test's manual clock: before every call the manual clock's time is
 * written where {@code ratchet_now_ms()} reads it. The store itself is the production code path. As
 * PostgreSQL's roles have it (D21), the worker's store claims, parks and finishes, and the
 * operator's delivers, schedules and submits.
 */
final class PinnedStore extends ForwardingCheckpointStore implements SchedulingStore {
  final JdbcStore store;
  private final Runnable sync;
  private final boolean closesStore;
  private final JdbcStore operator;

  /** {@code operator}: the store, connected as the operator role, that delivers inbox items. */
  PinnedStore(JdbcStore store, Runnable sync, boolean closesStore, JdbcStore operator) {
    super(store);
    this.store = store;
    this.sync = sync;
    this.closesStore = closesStore;
    this.operator = operator;
  }

  @Override
  public CommitResult commit(CommitRequest request) {
    sync.run();
    return store.commit(request);
  }

  @Override
  public Optional<StoredRun> load(String taskId, String runId) {
    sync.run();
    return store.load(taskId, runId);
  }

  @Override
  public void deliver(String taskId, String runId, InboxItem item) {
    operator.deliver(taskId, runId, item);
  }

  @Override
  public void schedule(String taskId, String runId, String driver, String taskRef) {
    sync.run();
    operator.schedule(taskId, runId, driver, taskRef);
  }

  @Override
  public void submit(String taskId, String runId, String driver, SignedSubmission submission) {
    sync.run();
    operator.submit(taskId, runId, driver, submission);
  }

  @Override
  public java.util.List<dev.ratchet.schedule.ScheduledRun> scheduled() {
    return store.scheduled();
  }

  @Override
  public Optional<SignedSubmission> submission(String taskId, String runId) {
    return store.submission(taskId, runId);
  }

  @Override
  public Optional<Claim> claim(String owner, Duration ttl) {
    sync.run();
    return store.claim(owner, ttl);
  }

  @Override
  public Optional<Claim> claimHeld(String taskId, String runId, Lease lease) {
    sync.run();
    return store.claimHeld(taskId, runId, lease);
  }

  @Override
  public boolean park(Claim claim, Lease lease, Instant wakeAt, String reason) {
    sync.run();
    return store.park(claim, lease, wakeAt, reason);
  }

  @Override
  public void finish(Claim claim, Lease lease, String reason) {
    sync.run();
    store.finish(claim, lease, reason);
  }

  @Override
  public int wakeWaiting() {
    sync.run();
    return store.wakeWaiting();
  }

  @Override
  public Optional<RunnableListener> listen() {
    return store.listen();
  }

  @Override
  public Optional<Lease> acquire(String runId, String owner, Duration ttl) {
    sync.run();
    return store.acquire(runId, owner, ttl);
  }

  @Override
  public Optional<Lease> takeOver(String runId, String owner, Duration ttl) {
    sync.run();
    return store.takeOver(runId, owner, ttl);
  }

  @Override
  public Lease renew(Lease lease, Duration ttl) {
    sync.run();
    return store.renew(lease, ttl);
  }

  @Override
  public void release(Lease lease) {
    sync.run();
    store.release(lease);
  }

  @Override
  public Optional<Lease> current(String runId) {
    return store.current(runId);
  }

  @Override
  public void check(Fence fence) {
    sync.run();
    store.check(fence);
  }

  @Override
  public void close() {
    if (closesStore) {
      operator.close();
      store.close();
    }
  }
}
