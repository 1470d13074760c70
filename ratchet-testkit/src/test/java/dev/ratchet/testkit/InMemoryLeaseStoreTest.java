package dev.ratchet.testkit;

import dev.ratchet.store.LeaseStore;

/** The lease-store contract on the reference in-memory store, expiry on the manual clock. */
class InMemoryLeaseStoreTest extends LeaseStoreContract {
  @Override
  protected LeaseStore newLeaseStore(ManualClock clock) {
    return new InMemoryStore(clock);
  }
}
