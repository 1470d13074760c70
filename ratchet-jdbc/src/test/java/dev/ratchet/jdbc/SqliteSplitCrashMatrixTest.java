package dev.ratchet.jdbc;

import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.testkit.CrashMatrixContract;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.RuntimeFixture;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime's crash matrix on a split store, which has one more crash window: the content is
 * durable and the mark not yet advanced ({@link CrashPoint#STORE_BETWEEN_CONTENT_AND_MARK}).
 */
class SqliteSplitCrashMatrixTest extends CrashMatrixContract {
  @TempDir Path dir;
  private final List<JdbcStore> opened = new ArrayList<>();

  @Override
  protected RuntimeFixture fixture(long seed) {
    ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
    AtomicReference<CrashSeam> seam = new AtomicReference<>(CrashSeam.NONE);
    JdbcStore store =
        TestStores.split(dir, TestStores.options(clock).withCrashSeam(p -> seam.get().reached(p)));
    opened.add(store);
    return new RuntimeFixture(seed, clock, store, store).onStoreCrashSeam(seam::set);
  }

  @Override
  protected Set<CrashPoint> points() {
    return allButBatched();
  }

  @AfterEach
  void closeStores() {
    opened.forEach(JdbcStore::close);
  }
}
