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
 * lease instead of asking the store for another. Everything else goes to the real store.
 */
public final class ClaimedLeases extends ForwardingLeaseStore {
  private final ConcurrentMap<String, Lease> handed = new ConcurrentHashMap<>();

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
