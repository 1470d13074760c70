package dev.ratchet.jdbc;

import java.nio.file.Path;
import java.util.List;

/** Fresh sharded stores over SQLite files in a test's temporary directory: two clusters. */
final class ShardedStores {
  private ShardedStores() {}

  static ShardedStore two(Path dir, StoreOptions options) {
    return ShardedStore.open(
        List.of(
            new Cluster("a", Database.sqlite(TestStores.file(dir, "cluster-a"))),
            new Cluster("b", Database.sqlite(TestStores.file(dir, "cluster-b")))),
        options);
  }
}
