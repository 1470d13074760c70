package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.store.CommitRequest;
import dev.ratchet.store.CommitResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Retention, the same on every shape of store (SQLite or PostgreSQL, one database or split): the
 * current checkpoint and exactly N older ones per run, N read at each commit; the rest of the log
 * and the content is deleted, and so is content that only a lost race wrote. Each subclass opens
 * its shape over the same data for every call within one test, and counts the rows left behind.
 */
abstract class RetentionContract {

  /** The options this shape's stores open with (the store's default retention). */
  protected abstract StoreOptions options();

  /** A store of this shape over this test's data. */
  protected abstract JdbcStore open(StoreOptions options);

  /** The run's rows in {@code table}: content on the content side, the log on the mark side. */
  protected abstract long rows(String table, String runId) throws Exception;

  private JdbcStore open(int retainOlder) {
    return open(options().withRetainOlder(retainOlder));
  }

  private static List<Long> generations(JdbcStore s, String runId) {
    return s.checkpoints(TestRun.TASK, runId).stream().map(RetainedCheckpoint::generation).toList();
  }

  private void assertRows(String runId, int expected) throws Exception {
    assertThat(rows("ratchet_checkpoints", runId))
        .as("content rows of " + runId)
        .isEqualTo(expected);
    assertThat(rows("ratchet_generations", runId)).as("log rows of " + runId).isEqualTo(expected);
  }

  @Test
  void theDefaultKeepsTheCurrentAndThreeOlder() throws Exception {
    try (JdbcStore s = open(options())) {
      new TestRun(s, s, "run-1").commits(10, 1);
      assertThat(generations(s, "run-1")).containsExactly(10L, 9L, 8L, 7L);
      for (RetainedCheckpoint c : s.checkpoints(TestRun.TASK, "run-1")) {
        assertThat(c.checkpoint()).contains("\"generation\":" + c.generation());
      }
    }
    assertRows("run-1", 4);
  }

  @Test
  void eachConfiguredCountIsKeptExactly() throws Exception {
    for (int n : new int[] {0, 1, 5}) {
      String runId = "run-" + n;
      try (JdbcStore s = open(n)) {
        new TestRun(s, s, runId).commits(12, 1);
        assertThat(generations(s, runId))
            .as("retainOlder=" + n)
            .hasSize(n + 1)
            .first()
            .isEqualTo(12L);
      }
      assertRows(runId, n + 1);
    }
  }

  @Test
  void aYoungRunKeepsEverything() throws Exception {
    try (JdbcStore s = open(options())) {
      new TestRun(s, s, "run-1").commits(2, 1);
      assertThat(generations(s, "run-1")).containsExactly(2L, 1L);
    }
    assertRows("run-1", 2);
  }

  @Test
  void runsAreRetainedIndependently() throws Exception {
    try (JdbcStore s = open(1)) {
      TestRun a = new TestRun(s, s, "run-a").commits(6, 1);
      new TestRun(s, s, "run-b").commits(1, 1);
      a.commits(2, 1);
      assertThat(generations(s, "run-a")).containsExactly(8L, 7L);
      assertThat(generations(s, "run-b")).containsExactly(1L);
    }
    assertRows("run-a", 2);
    assertRows("run-b", 1);
  }

  @Test
  void aLowerCountPrunesTheWholeRangeBelowItAtTheNextCommitAndAHigherOneLetsTheWindowGrow()
      throws Exception {
    TestRun run;
    try (JdbcStore s = open(5)) {
      run = new TestRun(s, s, "run-1").commits(10, 1);
      assertThat(generations(s, "run-1")).containsExactly(10L, 9L, 8L, 7L, 6L, 5L);
    }
    try (JdbcStore s = open(1)) {
      commit(s, run, "{\"generation\":11}");
      assertThat(generations(s, "run-1")).containsExactly(11L, 10L);
    }
    assertRows("run-1", 2);
    // Raised again: nothing is pruned until the window has grown to the new count.
    try (JdbcStore s = open(3)) {
      commit(s, run, "{\"generation\":12}");
      commit(s, run, "{\"generation\":13}");
      assertThat(generations(s, "run-1")).containsExactly(13L, 12L, 11L, 10L);
      commit(s, run, "{\"generation\":14}");
      assertThat(generations(s, "run-1")).containsExactly(14L, 13L, 12L, 11L);
    }
    assertRows("run-1", 4);
  }

  @Test
  void contentThatARetainedGenerationStillNamesIsKept() throws Exception {
    try (JdbcStore s = open(1)) {
      TestRun run = new TestRun(s, s, "run-1");
      for (String body : List.of("{\"a\":1}", "{\"b\":2}", "{\"a\":1}")) {
        commit(s, run, body);
      }
      // Generation 1 left the window, but generation 3 has the same content.
      assertThat(generations(s, "run-1")).containsExactly(3L, 2L);
      assertThat(rows("ratchet_checkpoints", "run-1")).isEqualTo(2);
      commit(s, run, "{\"c\":3}");
      assertThat(s.checkpoints(TestRun.TASK, "run-1"))
          .extracting(RetainedCheckpoint::checkpoint)
          .containsExactly("{\"c\":3}", "{\"a\":1}");
    }
    assertThat(rows("ratchet_checkpoints", "run-1")).isEqualTo(2);
  }

  /**
   * A late writer loses its race. A split store wrote its content first, on the other side; one
   * database wrote nothing. Either way the content is gone once retention has moved past it.
   */
  @Test
  void contentOfALostRaceDoesNotOutliveTheWindow() throws Exception {
    try (JdbcStore s = open(2)) {
      TestRun run = new TestRun(s, s, "run-1").commits(3, 1);
      CommitRequest stale =
          new CommitRequest(run.scope(), 1, run.lease, "{\"orphan\":true}", List.of());
      assertThat(s.commit(stale)).isEqualTo(new CommitResult.LostRace(3));
      run.commits(4, 1);
      assertThat(generations(s, "run-1")).containsExactly(7L, 6L, 5L);
      assertThat(s.checkpoints(TestRun.TASK, "run-1"))
          .extracting(RetainedCheckpoint::checkpoint)
          .noneMatch(c -> c.contains("orphan"));
    }
    assertRows("run-1", 3);
  }

  /** The run's next commit, with {@code body} as its checkpoint and no records; must win. */
  private static void commit(JdbcStore s, TestRun run, String body) {
    run.commitOn(s, run.nextWithCheckpoint(body));
  }
}
