package dev.ratchet.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.store.InboxItem;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Schema version 3 on SQLite (issue 17): the inbox takes an operator's CANCEL beside approvals and
 * reviewer decisions, and refuses any other kind at insert, as PostgreSQL's ratchet_deliver does;
 * since version 13 (issue 42) also an operator's PAUSE, UNPAUSE and MIGRATE.
 */
class SqliteInboxKindsTest {
  @TempDir Path dir;

  @Test
  void theInboxTakesCancelsAndRefusesUnknownKinds() throws SQLException {
    Path file = dir.resolve("kinds.db");
    InstantSource clock = InstantSource.fixed(Instant.parse("2026-07-18T09:00:00Z"));
    try (JdbcStore store = JdbcStore.open(Database.sqlite(file), TestStores.options(clock))) {
      new TestRun(store, store, "run-a").commits(1, 1);
      store.deliver(TestRun.TASK, "run-a", new InboxItem("c-1", InboxItem.Kind.CANCEL, "{}"));
      assertThat(store.inbox(TestRun.TASK, "run-a"))
          .containsExactly(new InboxItem("c-1", InboxItem.Kind.CANCEL, "{}"));
      try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
          Statement st = c.createStatement()) {
        Throwable t =
            catchThrowable(
                () ->
                    st.execute(
                        "INSERT INTO ratchet_inbox (task_id, run_id, nonce, position, kind,"
                            + " envelope) VALUES ('"
                            + TestRun.TASK
                            + "', 'run-a', 'x-1', 9, 'SUBMIT', '{}')"));
        assertThat(t).isInstanceOf(SQLException.class).hasMessageContaining("unknown kind");
      }
      assertThat(store.inbox(TestRun.TASK, "run-a")).hasSize(1);
    }
  }

  @Test
  void sinceVersion13TheInboxTakesPausesUnpausesAndMigrations() {
    Path file = dir.resolve("kinds13.db");
    InstantSource clock = InstantSource.fixed(Instant.parse("2026-07-18T09:00:00Z"));
    try (JdbcStore store = JdbcStore.open(Database.sqlite(file), TestStores.options(clock))) {
      new TestRun(store, store, "run-a").commits(1, 1);
      store.deliver(TestRun.TASK, "run-a", new InboxItem("p-1", InboxItem.Kind.PAUSE, "{}"));
      store.deliver(TestRun.TASK, "run-a", new InboxItem("u-1", InboxItem.Kind.UNPAUSE, "{}"));
      store.deliver(TestRun.TASK, "run-a", new InboxItem("m-1", InboxItem.Kind.MIGRATE, "{}"));
      assertThat(store.inbox(TestRun.TASK, "run-a"))
          .extracting(InboxItem::kind)
          .containsExactly(InboxItem.Kind.PAUSE, InboxItem.Kind.UNPAUSE, InboxItem.Kind.MIGRATE);
    }
  }
}
