package dev.ratchet.jdbc.internal;

import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.StoreOptions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.InstantSource;
import java.util.List;

/**
 * What differs between database engines; everything else (the protocol, the row-count checks, the
 * SQL of reads and compare-and-set updates) is shared. The statements the store issues stay within
 * what SQLite 3.35+ and PostgreSQL 13+ both accept ({@code INSERT ... ON CONFLICT}, {@code
 * SAVEPOINT}, {@code NOT EXISTS}); a dialect supplies connections, transaction brackets, the DDL
 * and the reading of error codes.
 */
public interface Dialect {

  /**
   * Opens a connection configured for this store. Throws {@code STORE_UNAVAILABLE} (without
   * creating anything) when the database is absent and {@code options.openMode()} is {@code
   * MUST_EXIST}.
   */
  Connection connect(Database db, StoreOptions options) throws SQLException;

  /**
   * Configures the writer connection once the database is known to be a Ratchet store (or is being
   * created): never before, so opening a foreign database changes nothing.
   */
  void prepareWriter(Connection c) throws SQLException;

  /** Starts a transaction that holds the write lock from its first statement. */
  void beginWrite(Connection c) throws SQLException;

  /** Starts a read transaction: one consistent snapshot until {@link #end}. */
  void beginRead(Connection c) throws SQLException;

  /** Commits; returns once durable at the configured synchronous level. */
  void commit(Connection c) throws SQLException;

  /** Rolls back whatever is open; never throws (the connection is discarded if it fails). */
  boolean rollback(Connection c);

  /** The versioned schema, oldest first, contiguous from 1. */
  List<Migration> migrations();

  /** Whether the store's own bookkeeping table exists. */
  boolean hasTable(Connection c, String table) throws SQLException;

  /**
   * The time that judges lease expiry, read inside the transaction that uses it (SPEC D8): the
   * injected clock for SQLite; PostgreSQL will answer with the database clock, so that every worker
   * is judged by one clock.
   */
  long nowMillis(Connection c, InstantSource injected) throws SQLException;

  /** Whether {@code e} is a unique or primary-key violation. */
  boolean isUniqueViolation(SQLException e);

  static Dialect of(Database db) {
    return switch (db.kind()) {
      case SQLITE -> SqliteDialect.INSTANCE;
    };
  }
}
