package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.seam.Seams;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Where group commit pays: several runs committing at once to a SQLite mark side (ADR 0043). */
class StoreOptionsTest {
  private static final StoreOptions DEFAULTS = StoreOptions.defaults(Seams.systemClock());
  private static final Database SQLITE = Database.sqlite(Path.of("store.db"));
  private static final Database PG = Database.postgres("jdbc:postgresql://h:5432/db", "u", null);

  @Test
  void groupCommitIsOnOnlyForSeveralRunsOnASqliteMarkSide() {
    assertThat(DEFAULTS.groupCommit()).isFalse();
    assertThat(DEFAULTS.withGroupCommitFor(SQLITE, 1).groupCommit()).isFalse();
    assertThat(DEFAULTS.withGroupCommitFor(SQLITE, 2).groupCommit()).isTrue();
    assertThat(DEFAULTS.withGroupCommitFor(SQLITE, 8).groupCommit()).isTrue();
    assertThat(DEFAULTS.withGroupCommitFor(PG, 8).groupCommit()).as("PostgreSQL").isFalse();
  }
}
