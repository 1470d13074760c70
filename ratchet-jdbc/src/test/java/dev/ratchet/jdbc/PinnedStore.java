package dev.ratchet.jdbc;

import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.Fence;
import dev.ratchet.store.ForwardingCheckpointStore;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseStore;
import dev.ratchet.store.StoredRun;
import java.time.Duration;
import java.util.Optional;

/**
 * A PostgreSQL {@link JdbcStore} whose schema's database clock is pinned ({@link
 * PgSchema#pinClock}) to a test's manual clock: before every call the manual clock's time is
 * written where {@code ratchet_now_ms()} reads it. The store itself is the production code path.
 */
final class PinnedStore extends ForwardingCheckpointStore implements LeaseStore {
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
