package dev.ratchet.jdbc;

import java.sql.SQLException;

/**
 * Wake-ups for workers (SPEC D24, ADR 0060): on PostgreSQL a dedicated connection listening to
 * {@code ratchet_runnable}; a worker waits on it instead of sleeping a whole poll interval. Polling
 * stays the fallback: a notification is a hint that a claim may succeed, never a claim.
 */
public interface Notifications extends AutoCloseable {
  /** Waits up to {@code timeoutMillis}; true when at least one notification arrived. */
  boolean await(long timeoutMillis) throws SQLException;

  @Override
  void close();
}
