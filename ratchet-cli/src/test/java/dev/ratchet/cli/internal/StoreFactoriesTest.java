package dev.ratchet.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.seam.Seams;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which stores the standard factory opens with group commit: several runs, a SQLite mark side. */
class StoreFactoriesTest {
  @TempDir Path dir;

  private static final StoreSpec PG = StoreSpec.parse("--store", "jdbc:postgresql://h:5432/db");

  @Test
  void batchesCommitsOnlyForSeveralRunsOnASqliteMarkSide() {
    StoreSpec sqlite = StoreSpec.sqlite(dir.resolve("s.db"));
    assertThat(StoreFactories.groupCommit(sqlite, null, 1)).isFalse();
    assertThat(StoreFactories.groupCommit(sqlite, null, 2)).isTrue();
    assertThat(StoreFactories.groupCommit(PG, null, 8)).as("PostgreSQL alone").isFalse();
    assertThat(StoreFactories.groupCommit(sqlite, PG, 8)).as("mark in PostgreSQL").isFalse();
    assertThat(StoreFactories.groupCommit(PG, sqlite, 8)).as("mark in SQLite").isTrue();
  }

  @Test
  void aSqliteStoreOpenedForFourRunsHasGroupCommitOnAndForOneOff() {
    StoreSpec spec = StoreSpec.sqlite(dir.resolve("store.db"));
    StoreFactory factory = StoreFactories.standard();
    try (Stores four =
        factory.open(
            spec, null, StoreFactory.Mode.CREATE, Seams.systemClock(), CrashSeam.NONE, 4)) {
      assertThat(((JdbcStore) four.checkpoints()).options().groupCommit()).isTrue();
    }
    try (Stores one =
        factory.open(
            spec, null, StoreFactory.Mode.MUST_EXIST, Seams.systemClock(), CrashSeam.NONE)) {
      assertThat(((JdbcStore) one.checkpoints()).options().groupCommit()).isFalse();
    }
  }
}
