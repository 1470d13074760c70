package dev.ratchet.testkit;

import dev.ratchet.schedule.SchedulingStore;

/**
 * The scheduling contract on core's in-memory store. It lives in one process, so the contract's
 * child-process race is skipped here; the thread race runs.
 */
class InMemorySchedulingStoreTest extends SchedulingStoreContract {
  @Override
  protected SchedulingStore newStore(ManualClock clock) {
    return new InMemoryStore(clock);
  }
}
