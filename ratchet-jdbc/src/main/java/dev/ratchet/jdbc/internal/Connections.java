package dev.ratchet.jdbc.internal;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * How a {@link Side} gets its connections: SQLite keeps one writer connection (writers serialise on
 * the file's lock anyway) and a few readers; PostgreSQL borrows every connection from a pool, so
 * concurrent commits run side by side and the server flushes their WAL together.
 */
public interface Connections extends AutoCloseable {
  /**
   * Whether writers must take the side's process-wide write lock before {@link #writer}: true for
   * the single SQLite writer connection, false for a pool.
   */
  boolean serialisesWriters();

  /** A connection for one write transaction (or schema inspection). */
  Connection writer() throws SQLException;

  /** Gives a writer back; an unhealthy one (its rollback failed) is discarded. */
  void doneWriting(Connection c, boolean healthy);

  /** A connection for one read snapshot; blocks while all readers are busy. */
  Connection reader() throws SQLException;

  /** Gives a reader back; an unhealthy one is discarded. */
  void doneReading(Connection c, boolean healthy);

  @Override
  void close();

  static void closeQuietly(Connection c) {
    try {
      c.close();
    } catch (SQLException e) {
      // Nothing to do: the connection is being discarded either way.
    }
  }
}
