package dev.ratchet.jdbc.internal;

import dev.ratchet.schedule.RunnableListener;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * A dedicated PostgreSQL connection that {@code LISTEN}s to {@code ratchet_runnable} (ADR 0060):
 * {@code ratchet_schedule}, {@code ratchet_submit} and the inbox trigger notify it. The connection
 * does nothing else, so waiting on it never holds a store connection.
 */
public final class PgListener implements RunnableListener {
  private final Connection c;
  private final PGConnection pg;

  private PgListener(Connection c) throws SQLException {
    this.c = c;
    this.pg = c.unwrap(PGConnection.class);
  }

  /** A listener on the store's PostgreSQL database; empty for SQLite. */
  public static java.util.Optional<RunnableListener> forStore(Side marks) {
    if (!(marks.dialect() instanceof PostgresDialect)) {
      return java.util.Optional.empty();
    }
    try {
      return java.util.Optional.of(open(marks));
    } catch (SQLException e) {
      throw Failures.unavailable("listening for runnable runs", e);
    }
  }

  private static PgListener open(Side marks) throws SQLException {
    Connection c = PostgresDialect.connect(marks.database(), 10);
    try {
      c.setAutoCommit(true);
      try (Statement st = c.createStatement()) {
        st.execute("LISTEN ratchet_runnable");
      }
      return new PgListener(c);
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  @Override
  public boolean await(long timeoutMillis) {
    try {
      PGNotification[] got =
          pg.getNotifications((int) Math.max(1, Math.min(timeoutMillis, 60_000)));
      return got != null && got.length > 0;
    } catch (SQLException e) {
      throw Failures.unavailable("listening for runnable runs", e);
    }
  }

  @Override
  public void close() {
    try {
      c.close();
    } catch (SQLException e) {
      // closing a listener that already failed: nothing left to release
    }
  }
}
