package dev.ratchet.jdbc;

import java.nio.file.Path;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicInteger;

/** Fresh SQLite stores in a test's temporary directory. */
final class TestStores {
  private static final AtomicInteger COUNTER = new AtomicInteger();

  private TestStores() {}

  static StoreOptions options(InstantSource clock) {
    return StoreOptions.defaults(clock).withOpenMode(OpenMode.CREATE);
  }

  static Path file(Path dir, String name) {
    return dir.resolve(name + "-" + COUNTER.incrementAndGet() + ".db");
  }

  static JdbcStore single(Path dir, StoreOptions options) {
    return JdbcStore.open(Database.sqlite(file(dir, "store")), options);
  }

  static JdbcStore split(Path dir, StoreOptions options) {
    return JdbcStore.split(
        Database.sqlite(file(dir, "marks")), Database.sqlite(file(dir, "content")), options);
  }
}
