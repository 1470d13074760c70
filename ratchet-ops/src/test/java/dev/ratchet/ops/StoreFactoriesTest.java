package dev.ratchet.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.seam.Seams;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The standard factory opens a store for several runs with group commit where the mark side pays
 * for it ({@code StoreOptions.withGroupCommitFor}, whose rule {@code StoreOptionsTest} checks).
 */
class StoreFactoriesTest {
  @TempDir Path dir;

  private static boolean groupCommit(Stores s) {
    return ((JdbcStore) s.checkpoints()).options().groupCommit();
  }

  @Test
  void aSqliteStoreOpenedForFourRunsHasGroupCommitOnAndForOneOff() {
    StoreSpec spec = StoreSpec.sqlite(dir.resolve("store.db"));
    StoreFactory factory = StoreFactories.standard();
    try (Stores four =
        factory.open(
            spec, null, StoreFactory.Mode.CREATE, Seams.systemClock(), CrashSeam.NONE, 4)) {
      assertThat(groupCommit(four)).isTrue();
    }
    try (Stores one =
        factory.open(
            spec, null, StoreFactory.Mode.MUST_EXIST, Seams.systemClock(), CrashSeam.NONE, 1)) {
      assertThat(groupCommit(one)).isFalse();
    }
  }

  @Test
  void aSplitStoreIsJudgedByItsMarkSide() {
    StoreSpec content = StoreSpec.sqlite(dir.resolve("content.db"));
    StoreSpec mark = StoreSpec.sqlite(dir.resolve("mark.db"));
    try (Stores split =
        StoreFactories.standard()
            .open(
                content, mark, StoreFactory.Mode.CREATE, Seams.systemClock(), CrashSeam.NONE, 4)) {
      assertThat(groupCommit(split)).as("mark in SQLite").isTrue();
    }
  }
}
