package dev.ratchet.testkit;

import dev.ratchet.seam.CrashPoint;
import java.util.Set;

/**
 * The crash matrix on the reference in-memory store, whose mark is kept apart from its content, so
 * the split window between them is a crash point too.
 */
class InMemoryCrashMatrixTest extends CrashMatrixContract {
  @Override
  protected RuntimeFixture fixture(long seed) {
    RuntimeFixture f = RuntimeFixture.inMemory(seed);
    InMemoryStore store = (InMemoryStore) f.store;
    return f.onStoreCrashSeam(store::crashSeam);
  }

  @Override
  protected Set<CrashPoint> points() {
    return allButBatched();
  }
}
