package dev.ratchet.jdbc.internal;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps a SQLite connection's prepared statements for reuse. The SQLite driver compiles the SQL
 * again on every {@code prepareStatement} and has no cache of its own (xerial/sqlite-jdbc#614); a
 * store commit sends about a dozen statements, so compiling them was a measurable part of each
 * commit. The wrapped connection hands out the cached statement for a SQL text while nobody holds
 * it; its {@code close()} closes the result set it returned, clears the parameters and gives it
 * back, so callers keep writing {@code try (PreparedStatement ps = c.prepareStatement(sql))}. A SQL
 * text asked for while its statement is held gets a fresh, uncached one. Closing the connection
 * closes every cached statement. Like the connection itself, one thread at a time.
 */
final class StatementCache implements InvocationHandler {
  /** Distinct SQL texts kept; the store uses fewer, retention's digest lists may add a few. */
  static final int CAPACITY = 64;

  private final Connection real;
  private final Map<String, Cached> cache =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Cached> eldest) {
          if (size() <= CAPACITY || eldest.getValue().held) {
            return false;
          }
          eldest.getValue().closeQuietly();
          return true;
        }
      };

  private StatementCache(Connection real) {
    this.real = real;
  }

  /** {@code real}, with {@code prepareStatement(String)} served from a cache. */
  static Connection wrap(Connection real) {
    return (Connection)
        Proxy.newProxyInstance(
            StatementCache.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            new StatementCache(real));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    String name = method.getName();
    if ("prepareStatement".equals(name) && args != null && args.length == 1) {
      return prepare((String) args[0]);
    }
    if ("close".equals(name) && args == null) {
      closeAll();
    }
    return call(real, method, args);
  }

  private PreparedStatement prepare(String sql) throws SQLException {
    Cached cached = cache.get(sql);
    if (cached != null && cached.held) {
      return real.prepareStatement(sql); // nested use of the same text: not shared
    }
    if (cached == null) {
      cached = new Cached(real.prepareStatement(sql));
      cache.put(sql, cached);
    }
    cached.held = true;
    return cached.view;
  }

  private void closeAll() {
    List<Cached> all = new ArrayList<>(cache.values());
    cache.clear();
    for (Cached c : all) {
      c.closeQuietly();
    }
  }

  private static Object call(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /** One cached statement and the view callers hold while using it. */
  private static final class Cached implements InvocationHandler {
    final PreparedStatement statement;
    final PreparedStatement view;
    boolean held;
    private ResultSet open;

    Cached(PreparedStatement statement) {
      this.statement = statement;
      this.view =
          (PreparedStatement)
              Proxy.newProxyInstance(
                  StatementCache.class.getClassLoader(),
                  new Class<?>[] {PreparedStatement.class},
                  this);
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      switch (method.getName()) {
        case "close":
          if (args == null) {
            giveBack();
            return null;
          }
          break;
        case "isClosed":
          if (args == null) {
            return !held || statement.isClosed();
          }
          break;
        case "executeQuery":
          if (args == null) {
            open = statement.executeQuery();
            return open;
          }
          break;
        default:
          break;
      }
      return call(statement, method, args);
    }

    /**
     * Closing the result set resets the SQLite statement (no read stays open on the connection);
     * clearing the parameters keeps one caller's values from reaching the next.
     */
    private void giveBack() throws SQLException {
      if (!held) {
        return;
      }
      held = false;
      ResultSet rs = open;
      open = null;
      if (rs != null) {
        rs.close();
      }
      statement.clearParameters();
    }

    void closeQuietly() {
      try {
        statement.close();
      } catch (SQLException e) {
        // The connection is going away, or the statement was already finalised.
      }
    }
  }
}
