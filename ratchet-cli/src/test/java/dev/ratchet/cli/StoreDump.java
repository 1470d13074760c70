package dev.ratchet.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.sqlite.SQLiteConfig;

/**
 * Test-side SQL on a store file: a full dump (every table, every row, in a stable order) to prove a
 * refused command changed nothing, and direct edits to tamper with a stored checkpoint.
 */
final class StoreDump {
  private StoreDump() {}

  static String of(Path db) {
    if (!Files.exists(db)) {
      return "(no store)";
    }
    SQLiteConfig config = new SQLiteConfig();
    config.setReadOnly(true);
    StringBuilder out = new StringBuilder();
    try (Connection c = config.createConnection("jdbc:sqlite:" + db);
        Statement s = c.createStatement()) {
      List<String> tables = new ArrayList<>();
      try (ResultSet r =
          s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
        while (r.next()) {
          tables.add(r.getString(1));
        }
      }
      for (String t : tables) {
        out.append("## ").append(t).append('\n');
        try (ResultSet r = s.executeQuery("SELECT * FROM " + t)) {
          int n = r.getMetaData().getColumnCount();
          List<String> rows = new ArrayList<>();
          while (r.next()) {
            StringBuilder row = new StringBuilder();
            for (int i = 1; i <= n; i++) {
              row.append(r.getString(i)).append('|');
            }
            rows.add(row.toString());
          }
          rows.sort(null);
          rows.forEach(x -> out.append(x).append('\n'));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return out.toString();
  }

  /** Runs one update on the store file and returns the number of rows it changed. */
  static int update(Path db, String sql, String... params) {
    try (Connection c = new SQLiteConfig().createConnection("jdbc:sqlite:" + db);
        var ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setString(i + 1, params[i]);
      }
      return ps.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  static String query(Path db, String sql, String... params) {
    try (Connection c = new SQLiteConfig().createConnection("jdbc:sqlite:" + db);
        var ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setString(i + 1, params[i]);
      }
      try (ResultSet r = ps.executeQuery()) {
        return r.next() ? r.getString(1) : null;
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
