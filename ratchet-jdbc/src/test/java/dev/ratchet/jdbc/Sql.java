package dev.ratchet.jdbc;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Raw SQL against a database file, the way an attacker or an operator with sqlite3 would. */
final class Sql {
  private Sql() {}

  static void exec(Path db, String... statements) {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement s = c.createStatement()) {
      s.execute("PRAGMA busy_timeout = 5000");
      for (String sql : statements) {
        s.execute(sql);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  static List<String> column(Path db, String query) {
    List<String> out = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(query)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return out;
  }

  /** The rows of {@code runId} in {@code table} (names from the test itself, never from input). */
  static long count(Path db, String table, String runId) {
    return Long.parseLong(
        one(db, "SELECT COUNT(*) FROM " + table + " WHERE run_id = '" + runId + "'"));
  }

  static String one(Path db, String query) {
    List<String> rows = column(db, query);
    if (rows.size() != 1) {
      throw new IllegalStateException(query + " returned " + rows.size() + " rows");
    }
    return rows.get(0);
  }
}
