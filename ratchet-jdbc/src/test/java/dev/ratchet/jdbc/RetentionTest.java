package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import dev.ratchet.store.RunScope;
import dev.ratchet.testkit.ManualClock;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Retention: the current checkpoint and exactly N older ones, per run; the rest is pruned. */
class RetentionTest {
  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));

  private static List<Long> generations(JdbcStore s, String runId) {
    return s.checkpoints(TestRun.TASK, runId).stream().map(RetainedCheckpoint::generation).toList();
  }

  private static long contentRows(Path db, String runId) {
    return Long.parseLong(
        Sql.one(db, "SELECT COUNT(*) FROM ratchet_checkpoints WHERE run_id = '" + runId + "'"));
  }

  @Test
  void theDefaultKeepsTheCurrentAndThreeOlder() {
    Path file = TestStores.file(dir, "r");
    try (JdbcStore s = JdbcStore.open(Database.sqlite(file), TestStores.options(clock))) {
      new TestRun(s, s, "run-1").commits(10, 1);
      assertThat(generations(s, "run-1")).containsExactly(10L, 9L, 8L, 7L);
      for (RetainedCheckpoint c : s.checkpoints(TestRun.TASK, "run-1")) {
        assertThat(c.checkpoint()).contains("\"generation\":" + c.generation());
      }
    }
    assertThat(contentRows(file, "run-1")).isEqualTo(4);
  }

  @Test
  void eachConfiguredCountIsKeptExactly() {
    for (int n : new int[] {0, 1, 5}) {
      Path file = TestStores.file(dir, "n" + n);
      StoreOptions o = TestStores.options(clock).withRetainOlder(n);
      try (JdbcStore s = JdbcStore.open(Database.sqlite(file), o)) {
        new TestRun(s, s, "run-1").commits(12, 1);
        assertThat(generations(s, "run-1")).hasSize(n + 1).first().isEqualTo(12L);
      }
      assertThat(contentRows(file, "run-1")).as("retainOlder=" + n).isEqualTo(n + 1);
    }
  }

  @Test
  void aYoungRunKeepsEverything() {
    try (JdbcStore s = TestStores.single(dir, TestStores.options(clock))) {
      new TestRun(s, s, "run-1").commits(2, 1);
      assertThat(generations(s, "run-1")).containsExactly(2L, 1L);
    }
  }

  @Test
  void runsAreRetainedIndependently() {
    try (JdbcStore s = TestStores.single(dir, TestStores.options(clock).withRetainOlder(1))) {
      TestRun a = new TestRun(s, s, "run-a").commits(6, 1);
      new TestRun(s, s, "run-b").commits(1, 1);
      a.commits(2, 1);
      assertThat(generations(s, "run-a")).containsExactly(8L, 7L);
      assertThat(generations(s, "run-b")).containsExactly(1L);
    }
  }

  @Test
  void aSplitStoreAlsoPrunesContentOfLostRaces() {
    Path marks = TestStores.file(dir, "marks");
    Path content = TestStores.file(dir, "content");
    StoreOptions o = TestStores.options(clock).withRetainOlder(2);
    try (JdbcStore s = JdbcStore.split(Database.sqlite(marks), Database.sqlite(content), o)) {
      TestRun run = new TestRun(s, s, "run-1").commits(3, 1);
      // A late writer at generation 2: its content lands in the content store, its mark loses.
      CommitRequest stale =
          new CommitRequest(
              new RunScope(TestRun.TASK, "run-1", TestRun.ENV),
              1,
              run.lease,
              "{\"orphan\":true}",
              List.of());
      assertThat(s.commit(stale)).isEqualTo(new CommitResult.LostRace(3));
      assertThat(contentRows(content, "run-1")).isEqualTo(4);
      run.commits(4, 1);
      assertThat(generations(s, "run-1")).containsExactly(7L, 6L, 5L);
    }
    assertThat(contentRows(content, "run-1")).isEqualTo(3);
    assertThat(Sql.one(marks, "SELECT COUNT(*) FROM ratchet_generations")).isEqualTo("3");
  }
}
