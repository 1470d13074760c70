package dev.ratchet.jdbc;

import dev.ratchet.schedule.SchedulingStore;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.SchedulingStoreContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduling contract on a store spread over two databases (issue 44): rows land on both, and a
 * claim still takes the least recently touched claimable row of all, each exactly once.
 */
class ShardedSchedulingStoreTest extends SchedulingStoreContract {
  @TempDir Path dir;

  @Override
  protected SchedulingStore newStore(ManualClock clock) {
    return ShardedStores.two(dir, TestStores.options(clock));
  }
}
