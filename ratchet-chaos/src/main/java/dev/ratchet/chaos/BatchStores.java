package dev.ratchet.chaos;

import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.StoreOptions;
import java.nio.file.Path;

/**
 * The two SQLite stores a crash batch shares, in the batch directory: one database, and split mark
 * and content. The supervisor creates them; every worker opens the same files.
 */
record BatchStores(JdbcStore single, JdbcStore split) implements AutoCloseable {
  static BatchStores open(Path dir, StoreOptions options) {
    JdbcStore single = JdbcStore.open(Database.sqlite(dir.resolve("store.db")), options);
    try {
      return new BatchStores(
          single,
          JdbcStore.split(
              Database.sqlite(dir.resolve("marks.db")),
              Database.sqlite(dir.resolve("content.db")),
              options));
    } catch (RuntimeException e) {
      single.close();
      throw e;
    }
  }

  /** The store trial {@code plan} runs on. */
  JdbcStore of(CrashPlan plan) {
    return plan.split() ? split : single;
  }

  @Override
  public void close() {
    try {
      split.close();
    } finally {
      single.close();
    }
  }
}
