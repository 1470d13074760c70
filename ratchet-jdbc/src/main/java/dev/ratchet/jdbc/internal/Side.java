package dev.ratchet.jdbc.internal;

import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.StoreOptions;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One database a store talks to (the whole store, or its mark side or content side): a single
 * writer connection behind a lock, and a few reader connections. SQLite serialises writers anyway,
 * so one writer connection per process loses nothing and never meets the idle-lock pitfall; WAL
 * lets the readers run beside it.
 *
 * <p>Every {@link #write} is one transaction that holds the write lock from its first statement;
 * every {@link #read} is one consistent snapshot. {@link SQLException}s become {@code
 * STORE_UNAVAILABLE}; any failure rolls back.
 */
public final class Side implements AutoCloseable {
  private static final int READERS = 4;

  private final Database db;
  private final Dialect dialect;
  private final StoreOptions options;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final Semaphore readerPermits = new Semaphore(READERS);
  private final ConcurrentLinkedQueue<Connection> idleReaders = new ConcurrentLinkedQueue<>();
  private Connection writer; // guarded by writeLock; null after a failure, reopened lazily
  private volatile boolean closed;
  private final int schemaVersion;

  private Side(Database db, StoreOptions options) {
    this.db = db;
    this.dialect = Dialect.of(db);
    this.options = options;
    try {
      this.writer = dialect.connect(db, options);
    } catch (SQLException e) {
      throw Failures.sql(this, "opening", e);
    }
    try {
      this.schemaVersion = Migrator.migrate(this);
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /** Connects, checks the schema and applies pending migrations (see {@link Migrator}). */
  public static Side open(Database db, StoreOptions options) {
    return new Side(db, options);
  }

  public Dialect dialect() {
    return dialect;
  }

  StoreOptions options() {
    return options;
  }

  public int schemaVersion() {
    return schemaVersion;
  }

  /** Lease-expiry time for work inside a transaction on this side ({@link Dialect#nowMillis}). */
  public long now(Connection c) throws SQLException {
    return dialect.nowMillis(c, options.clock());
  }

  public String describe() {
    return db.toString();
  }

  /** Runs {@code work} on the writer without a transaction bracket (schema inspection only). */
  <T> T raw(String action, SqlWork<T> work) {
    writeLock.lock();
    try {
      return work.run(writer());
    } catch (SQLException e) {
      throw Failures.sql(this, action, e);
    } finally {
      writeLock.unlock();
    }
  }

  /** One write transaction ({@code BEGIN IMMEDIATE ... COMMIT}); durable when it returns. */
  public <T> T write(String action, SqlWork<T> work) {
    writeLock.lock();
    try {
      Connection c;
      try {
        c = writer();
        dialect.beginWrite(c);
      } catch (SQLException e) {
        throw Failures.sql(this, action, e);
      }
      try {
        T result = work.run(c);
        dialect.commit(c);
        return result;
      } catch (SQLException e) {
        rollbackWriter(c);
        throw Failures.sql(this, action, e);
      } catch (RuntimeException | Error e) {
        rollbackWriter(c);
        throw e;
      }
    } finally {
      writeLock.unlock();
    }
  }

  /** One read snapshot on a reader connection. */
  public <T> T read(String action, SqlWork<T> work) {
    readerPermits.acquireUninterruptibly();
    Connection c = null;
    boolean healthy = false;
    try {
      c = borrowReader();
      dialect.beginRead(c);
      try {
        T result = work.run(c);
        dialect.commit(c);
        healthy = true;
        return result;
      } catch (SQLException | RuntimeException | Error e) {
        healthy = dialect.rollback(c);
        throw e;
      }
    } catch (SQLException e) {
      throw Failures.sql(this, action, e);
    } finally {
      giveBack(c, healthy);
      readerPermits.release();
    }
  }

  private Connection writer() throws SQLException {
    requireOpen();
    if (writer == null) {
      writer = dialect.connect(db, options);
      dialect.prepareWriter(writer);
    }
    return writer;
  }

  private void rollbackWriter(Connection c) {
    if (!dialect.rollback(c)) {
      closeQuietly(c);
      writer = null;
    }
  }

  private Connection borrowReader() throws SQLException {
    requireOpen();
    Connection c = idleReaders.poll();
    return c != null ? c : dialect.connect(db, options);
  }

  private void giveBack(Connection c, boolean healthy) {
    if (c == null) {
      return;
    }
    if (healthy && !closed) {
      idleReaders.add(c);
      if (closed && idleReaders.remove(c)) {
        closeQuietly(c);
      }
    } else {
      closeQuietly(c);
    }
  }

  private void requireOpen() {
    if (closed) {
      throw Failures.unavailable(describe() + ": the store is closed");
    }
  }

  @Override
  public void close() {
    closed = true;
    writeLock.lock();
    try {
      if (writer != null) {
        closeQuietly(writer);
        writer = null;
      }
    } finally {
      writeLock.unlock();
    }
    Connection c;
    while ((c = idleReaders.poll()) != null) {
      closeQuietly(c);
    }
  }

  private static void closeQuietly(Connection c) {
    try {
      c.close();
    } catch (SQLException e) {
      // Nothing to do: the connection is being discarded either way.
    }
  }
}
