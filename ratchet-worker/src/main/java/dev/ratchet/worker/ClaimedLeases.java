package dev.ratchet.worker;

import dev.ratchet.store.ForwardingLeaseStore;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseStore;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A lease store that hands a worker's claimed lease to the {@code Ratchet} front door: the claim
 * already granted the lease (with its token) to the worker, so the resume that follows takes that
 * lease instead of asking the store for another; a lease the worker already released with the run's
 * finish is not released a second time. Everything else goes to the real store.
 */
public final class ClaimedLeases extends ForwardingLeaseStore {
  private final ConcurrentMap<String, Lease> handed = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, Lease> released = new ConcurrentHashMap<>();

  public ClaimedLeases(LeaseStore store) {
    super(store);
  }

  /** The next acquire or take-over of this lease's run by its owner returns it (once). */
  public void hand(Lease lease) {
    handed.put(lease.runId(), lease);
  }

  /** Forgets a lease that was handed but not taken (the resume failed before acquiring). */
  public void forget(String runId) {
    handed.remove(runId);
  }

  /**
   * The worker released {@code lease} already (finish and release in one call): the run's next
   * release of that same lease (run, owner, version) is skipped, once.
   */
  public void released(Lease lease) {
    released.put(lease.runId(), lease);
  }

  @Override
  public void release(Lease lease) {
    Lease done = released.get(lease.runId());
    if (done != null
        && done.owner().equals(lease.owner())
        && done.version() == lease.version()
        && released.remove(lease.runId(), done)) {
      return;
    }
    delegate.release(lease);
  }

  private Optional<Lease> take(String runId, String owner) {
    Lease l = handed.get(runId);
    if (l != null && l.owner().equals(owner) && handed.remove(runId, l)) {
      return Optional.of(l);
    }
    return Optional.empty();
  }

  @Override
  public Optional<Lease> acquire(String runId, String owner, Duration ttl) {
    Optional<Lease> claimed = take(runId, owner);
    return claimed.isPresent() ? claimed : delegate.acquire(runId, owner, ttl);
  }

  @Override
  public Optional<Lease> takeOver(String runId, String owner, Duration ttl) {
    Optional<Lease> claimed = take(runId, owner);
    return claimed.isPresent() ? claimed : delegate.takeOver(runId, owner, ttl);
  }
}
