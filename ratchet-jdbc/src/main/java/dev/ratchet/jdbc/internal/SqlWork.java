package dev.ratchet.jdbc.internal;

import java.sql.Connection;
import java.sql.SQLException;

/** A unit of SQL run inside a transaction that {@link Side} opens and ends. */
@FunctionalInterface
public interface SqlWork<T> {
  T run(Connection c) throws SQLException;
}
