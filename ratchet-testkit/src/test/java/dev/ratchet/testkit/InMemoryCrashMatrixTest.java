package dev.ratchet.testkit;

/** The crash matrix on the reference in-memory store. */
class InMemoryCrashMatrixTest extends CrashMatrixContract {
  @Override
  protected RuntimeFixture fixture(long seed) {
    return RuntimeFixture.inMemory(seed);
  }
}
