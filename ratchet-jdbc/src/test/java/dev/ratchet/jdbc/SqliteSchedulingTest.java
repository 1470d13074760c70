package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.schedule.Claim;
import dev.ratchet.schedule.SignedSubmission;
import dev.ratchet.store.InboxItem;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Schema version 4 on SQLite (ADR 0060): a scheduling row per run; an inbox item delivered to a
 * waiting run makes it runnable and counts a nudge, and an ended row stays ended.
 */
class SqliteSchedulingTest {
  @TempDir Path dir;

  @Test
  void anInboxItemWakesAWaitingRunAndLeavesAnEndedOneEnded() throws SQLException {
    Path file = dir.resolve("schedule.db");
    InstantSource clock = InstantSource.fixed(Instant.parse("2026-07-18T09:00:00Z"));
    try (JdbcStore store = JdbcStore.open(Database.sqlite(file), TestStores.options(clock))) {
      new TestRun(store, store, "run-a").commits(1, 1);
      new TestRun(store, store, "run-b").commits(1, 1);
      try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
          Statement st = c.createStatement()) {
        st.execute(
            "INSERT INTO ratchet_schedule (task_id, run_id, driver, task_ref, state, updated_at_ms)"
                + " VALUES ('"
                + TestRun.TASK
                + "', 'run-a', 'plan', 't.json', 'waiting', 0), ('"
                + TestRun.TASK
                + "', 'run-b', 'plan', 't.json', 'ended', 0)");
        store.deliver(TestRun.TASK, "run-a", new InboxItem("a-1", InboxItem.Kind.APPROVAL, "{}"));
        store.deliver(TestRun.TASK, "run-b", new InboxItem("b-1", InboxItem.Kind.APPROVAL, "{}"));
        try (ResultSet rs =
            st.executeQuery("SELECT run_id, state, nudges FROM ratchet_schedule ORDER BY run_id")) {
          rs.next();
          assertThat(rs.getString(2)).isEqualTo("runnable");
          assertThat(rs.getLong(3)).isEqualTo(1);
          rs.next();
          assertThat(rs.getString(2)).isEqualTo("ended");
          assertThat(rs.getLong(3)).isEqualTo(1);
        }
      }
    }
  }

  @Test
  void sinceVersion7ASubmissionIsStoredWithItsRunnableRowAndARunIdIsSubmittedOnce() {
    Path file = dir.resolve("submit.db");
    InstantSource clock = InstantSource.fixed(Instant.parse("2026-07-18T09:00:00Z"));
    try (JdbcStore store = JdbcStore.open(Database.sqlite(file), TestStores.options(clock))) {
      store.submit(TestRun.TASK, "run-s", "plan", new SignedSubmission("{\"payload\":{}}"));
      assertThat(store.submission(TestRun.TASK, "run-s"))
          .contains(new SignedSubmission("{\"payload\":{}}"));
      Claim c = store.claim("w1", java.time.Duration.ofMinutes(1)).orElseThrow();
      assertThat(c.runId()).isEqualTo("run-s");
      assertThat(c.submitted()).isTrue();
      dev.ratchet.error.RatchetException again =
          org.assertj.core.api.Assertions.catchThrowableOfType(
              dev.ratchet.error.RatchetException.class,
              () -> store.submit(TestRun.TASK, "run-s", "plan", new SignedSubmission("{}")));
      assertThat(again).hasMessageContaining("run 'run-s' already exists or was submitted");
      new TestRun(store, store, "run-a").commits(1, 1);
      assertThat(
              org.assertj.core.api.Assertions.catchThrowableOfType(
                  dev.ratchet.error.RatchetException.class,
                  () -> store.submit(TestRun.TASK, "run-a", "plan", new SignedSubmission("{}"))))
          .as("a run id the store already holds")
          .isNotNull();
    }
  }
}
