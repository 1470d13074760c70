package dev.ratchet.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.error.RatchetException;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.ops.Session;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.InboxItem;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * D26 on SQLite: the console reads through a read-only connection. Reads work (the run is listed
 * and verified), and a write through the very store the console reads with is refused by SQLite
 * itself, so nothing reaches the inbox; only the delivery path opens a writing connection.
 */
class ConsoleReadOnlyTest {
  @TempDir Path dir;

  @Test
  void theConsolesReadConnectionCannotWrite() throws Exception {
    try (SqliteConsole s = new SqliteConsole(dir)) {
      // A submitted run exists once a worker has claimed it and made its first commit.
      s.startWorker();
      s.awaitWorker("run " + SqliteConsole.RUN + ": waiting (awaiting approval)");
      try (Session r = ConsoleServer.open(s.config)) {
        assertThat(((JdbcStore) r.store()).options().openMode()).isEqualTo(OpenMode.READ_ONLY);
        assertThat(r.store().runs())
            .extracting(CheckpointStore.RunRef::runId)
            .containsExactly(SqliteConsole.RUN);
        assertThat(r.check(SqliteConsole.RUN).state().runId()).isEqualTo(SqliteConsole.RUN);

        Throwable refused =
            catchThrowable(
                () ->
                    r.store()
                        .deliver(
                            SqliteConsole.TASK,
                            SqliteConsole.RUN,
                            new InboxItem("n-read-only", InboxItem.Kind.APPROVAL, "{}")));
        assertThat(refused).isInstanceOf(RatchetException.class);
        assertThat(chain(refused)).containsIgnoringCase("readonly");
        assertThat(r.store().inbox(SqliteConsole.TASK, SqliteConsole.RUN)).isEmpty();
      }
      // The delivery path is the one that may write (SQLite has no roles).
      try (Session w = ConsoleServer.openToDeliver(s.config)) {
        assertThat(((JdbcStore) w.store()).options().openMode()).isEqualTo(OpenMode.MUST_EXIST);
      }
    }
  }

  private static String chain(Throwable t) {
    StringBuilder b = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      b.append(c.getClass().getName()).append(": ").append(c.getMessage()).append('\n');
    }
    return b.toString();
  }
}
