package dev.ratchet.jdbc.internal;

import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.StoreOptions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.InstantSource;
import java.util.List;

/**
 * What differs between database engines; everything else (the protocol, the row-count checks, the
 * SQL of reads and of records, content and inbox) is shared. The shared statements stay within what
 * SQLite 3.35+ and PostgreSQL 13+ both accept ({@code INSERT ... ON CONFLICT}, {@code SAVEPOINT},
 * {@code NOT EXISTS}); a dialect supplies connections, transaction brackets, the DDL, the writes
 * that move marks and leases ({@link Writes}), the clock that judges leases, and the reading of
 * error codes.
 */
public interface Dialect {

  /**
   * The connections of one side: SQLite's single writer and readers, or PostgreSQL's pool. Throws
   * {@code STORE_UNAVAILABLE} (without creating anything) when the database is absent and {@code
   * options.openMode()} is {@code MUST_EXIST}.
   */
  Connections connections(Database db, StoreOptions options) throws SQLException;

  /** Opens one raw connection configured for this store (SQLite; a pool uses its own). */
  Connection connect(Database db, StoreOptions options) throws SQLException;

  /**
   * Configures the writer connection once the database is known to be a Ratchet store (or is being
   * created): never before, so opening a foreign database changes nothing.
   */
  void prepareWriter(Connection c) throws SQLException;

  /** Starts a write transaction. */
  void beginWrite(Connection c) throws SQLException;

  /** Starts a read transaction: one consistent snapshot until {@link #commit}. */
  void beginRead(Connection c) throws SQLException;

  /** Commits; returns once durable at the configured synchronous level. */
  void commit(Connection c) throws SQLException;

  /** Rolls back whatever is open; never throws (the connection is discarded if it fails). */
  boolean rollback(Connection c);

  /** The versioned schema for {@code db}, oldest first, contiguous from 1. */
  List<Migration> migrations(Database db);

  /**
   * Called first in the migrating transaction: serialises migrators of the same store (SQLite's
   * {@code BEGIN IMMEDIATE} already does) and creates the namespace the tables go into.
   */
  void beforeMigrating(Connection c, Database db) throws SQLException;

  /**
   * Serialises the write transactions that name {@code key} until they end (SQLite's writers are
   * serialised anyway; PostgreSQL takes a transaction-scoped advisory lock).
   */
  void lock(Connection c, String key) throws SQLException;

  /** Whether the store's own bookkeeping table exists. */
  boolean hasTable(Connection c, String table) throws SQLException;

  /**
   * The time that judges lease expiry, read inside the transaction that uses it (SPEC D8): the
   * injected clock for SQLite; the database clock ({@code ratchet_now_ms()}) for PostgreSQL, so
   * that every worker is judged by one clock.
   */
  long nowMillis(Connection c, InstantSource injected) throws SQLException;

  /** The statements that move marks and leases. */
  Writes writes();

  /** Whether {@code e} is a unique or primary-key violation. */
  boolean isUniqueViolation(SQLException e);

  static Dialect of(Database db) {
    return switch (db.kind()) {
      case SQLITE -> SqliteDialect.INSTANCE;
      case POSTGRES -> PostgresDialect.INSTANCE;
    };
  }
}
