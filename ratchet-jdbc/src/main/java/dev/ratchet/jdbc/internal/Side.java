package dev.ratchet.jdbc.internal;

import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.StoreOptions;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One database a store talks to (the whole store, or its mark side or content side). Its {@link
 * Connections} come from the dialect: on SQLite a single writer connection behind this side's lock
 * and a few readers; on PostgreSQL a pool, so write transactions run concurrently and the server
 * groups their commits.
 *
 * <p>Every {@link #write} is one transaction that holds what it writes from its first statement;
 * every {@link #read} is one consistent snapshot. {@link SQLException}s become {@code
 * STORE_UNAVAILABLE}; any failure rolls back.
 */
public final class Side implements AutoCloseable {
  private final Database db;
  private final Dialect dialect;
  private final StoreOptions options;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final Connections connections;
  private volatile boolean closed;
  private final int schemaVersion;

  private Side(Database db, StoreOptions options) {
    this.db = db;
    this.dialect = Dialect.of(db);
    this.options = options;
    try {
      this.connections = dialect.connections(db, options);
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

  Database database() {
    return db;
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

  /** Runs {@code work} on a writer without a transaction bracket (schema inspection only). */
  <T> T raw(String action, SqlWork<T> work) {
    lockWriters();
    try {
      requireOpen();
      Connection c = connections.writer();
      boolean healthy = false;
      try {
        T result = work.run(c);
        healthy = true;
        return result;
      } finally {
        connections.doneWriting(c, healthy);
      }
    } catch (SQLException e) {
      throw Failures.sql(this, action, e);
    } finally {
      unlockWriters();
    }
  }

  /** One write transaction; durable when it returns. */
  public <T> T write(String action, SqlWork<T> work) {
    return withWriter(
        action,
        c -> {
          boolean healthy = true;
          try {
            dialect.beginWrite(c);
            T result = work.run(c);
            dialect.commit(c);
            return result;
          } catch (SQLException e) {
            healthy = dialect.rollback(c);
            throw Failures.sql(this, action, e);
          } catch (RuntimeException | Error e) {
            healthy = dialect.rollback(c);
            throw e;
          } finally {
            connections.doneWriting(c, healthy);
          }
        });
  }

  /**
   * One statement that is its own transaction (auto-commit): durable when it returns, and no
   * separate BEGIN or COMMIT round trip. Only for work that issues exactly one writing statement
   * (reads after it, e.g. explaining a refusal, see committed data).
   */
  public <T> T statement(String action, SqlWork<T> work) {
    return withWriter(
        action,
        c -> {
          boolean healthy = true;
          try {
            c.setAutoCommit(true);
            return work.run(c);
          } catch (SQLException e) {
            healthy = stillUsable(e);
            throw Failures.sql(this, action, e);
          } finally {
            healthy = restoreManualCommit(c) && healthy;
            connections.doneWriting(c, healthy);
          }
        });
  }

  /**
   * What a writer does with its borrowed connection; it must hand it back ({@code doneWriting}).
   */
  private interface WriterUse<T> {
    T run(Connection c);
  }

  /** Borrows the writer connection under the writers' lock and runs {@code use} on it. */
  private <T> T withWriter(String action, WriterUse<T> use) {
    lockWriters();
    try {
      Connection c;
      try {
        requireOpen();
        c = connections.writer();
      } catch (SQLException e) {
        throw Failures.sql(this, action, e);
      }
      return use.run(c);
    } finally {
      unlockWriters();
    }
  }

  /** A refused statement rolled itself back; only a broken connection (08xxx) is dropped. */
  private static boolean stillUsable(SQLException e) {
    String state = e.getSQLState();
    return state == null || !state.startsWith("08");
  }

  /** Borrows a reader connection of an open store. */
  private Connection reader(String action) {
    try {
      requireOpen();
      return connections.reader();
    } catch (SQLException e) {
      throw Failures.sql(this, action, e);
    }
  }

  private static boolean restoreManualCommit(Connection c) {
    try {
      c.setAutoCommit(false);
      return true;
    } catch (SQLException e) {
      return false;
    }
  }

  /** One read snapshot on a reader connection. */
  public <T> T read(String action, SqlWork<T> work) {
    Connection c = reader(action);
    boolean healthy = false;
    try {
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
      connections.doneReading(c, healthy);
    }
  }

  /**
   * A read of exactly one statement, which is its own consistent snapshot: run auto-committed, with
   * no transaction around it (on PostgreSQL one round trip instead of four: isolation, query,
   * commit). Reads of more than one statement use {@link #read}.
   */
  public <T> T readStatement(String action, SqlWork<T> work) {
    Connection c = reader(action);
    boolean healthy = true;
    boolean manual = false;
    try {
      manual = !c.getAutoCommit();
      if (manual) {
        c.setAutoCommit(true);
      }
      return work.run(c);
    } catch (SQLException e) {
      healthy = stillUsable(e);
      throw Failures.sql(this, action, e);
    } finally {
      if (manual) {
        healthy = restoreManualCommit(c) && healthy;
      }
      connections.doneReading(c, healthy);
    }
  }

  private void lockWriters() {
    if (connections == null || connections.serialisesWriters()) {
      writeLock.lock();
    }
  }

  private void unlockWriters() {
    if (connections == null || connections.serialisesWriters()) {
      writeLock.unlock();
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
    if (connections == null) {
      return;
    }
    lockWriters(); // the single writer finishes its transaction first
    try {
      connections.close();
    } finally {
      unlockWriters();
    }
  }
}
