package dev.ratchet.jdbc.internal;

import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.StoreOptions;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;

/**
 * SQLite's connections: one writer, used under the side's write lock (SQLite serialises writers
 * anyway, and one writer connection per process never meets the idle-lock pitfall), reopened lazily
 * after a failure; and up to four readers, which WAL lets run beside it.
 */
final class SingleWriter implements Connections {
  private static final int READERS = 4;

  private final Database db;
  private final Dialect dialect;
  private final StoreOptions options;
  private final Semaphore readerPermits = new Semaphore(READERS);
  private final ConcurrentLinkedQueue<Connection> idleReaders = new ConcurrentLinkedQueue<>();
  private Connection writer; // guarded by the side's write lock; null after a failure
  private volatile boolean closed;

  /** Connects the writer at once, but configures it only when {@link Migrator} says so. */
  SingleWriter(Database db, Dialect dialect, StoreOptions options) throws SQLException {
    this.db = db;
    this.dialect = dialect;
    this.options = options;
    this.writer = dialect.connect(db, options);
  }

  @Override
  public boolean serialisesWriters() {
    return true;
  }

  @Override
  public Connection writer() throws SQLException {
    if (writer == null) {
      Connection c = dialect.connect(db, options);
      try {
        dialect.prepareWriter(c);
      } catch (SQLException | RuntimeException e) {
        Connections.closeQuietly(c);
        throw e;
      }
      writer = c;
    }
    return writer;
  }

  @Override
  public void doneWriting(Connection c, boolean healthy) {
    if (!healthy && c == writer) {
      Connections.closeQuietly(c);
      writer = null;
    }
  }

  @Override
  public Connection reader() throws SQLException {
    readerPermits.acquireUninterruptibly();
    try {
      Connection c = idleReaders.poll();
      return c != null ? c : dialect.connect(db, options);
    } catch (SQLException | RuntimeException e) {
      readerPermits.release();
      throw e;
    }
  }

  @Override
  public void doneReading(Connection c, boolean healthy) {
    try {
      if (healthy && !closed) {
        idleReaders.add(c);
        if (closed && idleReaders.remove(c)) {
          Connections.closeQuietly(c);
        }
      } else {
        Connections.closeQuietly(c);
      }
    } finally {
      readerPermits.release();
    }
  }

  /** Called under the side's write lock, so no write is in flight. */
  @Override
  public void close() {
    closed = true;
    if (writer != null) {
      Connections.closeQuietly(writer);
      writer = null;
    }
    Connection c;
    while ((c = idleReaders.poll()) != null) {
      Connections.closeQuietly(c);
    }
  }
}
