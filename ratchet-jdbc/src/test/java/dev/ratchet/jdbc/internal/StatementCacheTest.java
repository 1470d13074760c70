package dev.ratchet.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.StoreOptions;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteException;

/** The SQLite store connection's statement cache, on a real SQLite file opened by the dialect. */
class StatementCacheTest {
  @TempDir Path dir;
  private Connection c;

  @BeforeEach
  void open() throws SQLException {
    c =
        SqliteDialect.INSTANCE.connect(
            Database.sqlite(dir.resolve("cache.db")),
            StoreOptions.defaults(Clock.systemUTC()).withOpenMode(OpenMode.CREATE));
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)");
      s.execute("INSERT INTO t VALUES ('a', 1), ('b', 2), ('c', 3)");
    }
  }

  @AfterEach
  void close() throws SQLException {
    c.close();
  }

  /** The driver's own statement behind a handed-out one, to tell two of them apart. */
  private static PreparedStatement underlying(PreparedStatement ps) throws SQLException {
    return ps.unwrap(PreparedStatement.class);
  }

  @Test
  void aTextPreparedAgainAfterCloseGetsTheSameCompiledStatement() throws SQLException {
    PreparedStatement first;
    try (PreparedStatement ps = c.prepareStatement("SELECT v FROM t WHERE k = ?")) {
      first = underlying(ps);
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT v FROM t WHERE k = ?")) {
      assertThat(underlying(ps)).isSameAs(first);
      ps.setString(1, "b");
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(2);
      }
    }
  }

  @Test
  void oneCallersParametersDoNotReachTheNext() throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT ? IS NULL")) {
      ps.setString(1, "left behind");
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getBoolean(1)).isFalse();
      }
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT ? IS NULL");
        ResultSet rs = ps.executeQuery()) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getBoolean(1)).as("the earlier value was cleared").isTrue();
    }
  }

  @Test
  void givingAStatementBackClosesTheResultSetItReturned() throws SQLException {
    ResultSet left;
    try (PreparedStatement ps = c.prepareStatement("SELECT k FROM t ORDER BY k")) {
      left = ps.executeQuery();
      assertThat(left.next()).isTrue(); // a read left half-way: it would keep a snapshot open
    }
    assertThat(left.isClosed()).isTrue();
    // The connection is out of any read: a write transaction can begin and commit at once.
    try (PreparedStatement begin = c.prepareStatement("BEGIN IMMEDIATE")) {
      begin.execute();
    }
    try (Statement s = c.createStatement()) {
      s.execute("INSERT INTO t VALUES ('d', 4)");
      s.execute("COMMIT");
    }
  }

  @Test
  void aTextAskedForWhileHeldGetsASeparateStatementThatReallyCloses() throws SQLException {
    try (PreparedStatement outer = c.prepareStatement("SELECT k FROM t ORDER BY k");
        ResultSet rows = outer.executeQuery()) {
      List<String> seen = new ArrayList<>();
      PreparedStatement inner = c.prepareStatement("SELECT k FROM t ORDER BY k");
      PreparedStatement innerDriver = underlying(inner);
      assertThat(innerDriver).isNotSameAs(underlying(outer));
      try (ResultSet again = inner.executeQuery()) {
        while (again.next()) {
          seen.add(again.getString(1));
        }
      }
      inner.close();
      assertThat(innerDriver.isClosed()).isTrue();
      assertThat(rows.next()).as("the held statement's rows are untouched").isTrue();
      assertThat(rows.getString(1)).isEqualTo("a");
      assertThat(seen).containsExactly("a", "b", "c");
    }
  }

  @Test
  void closingTheConnectionClosesEveryCachedStatement() throws SQLException {
    PreparedStatement driver;
    try (PreparedStatement ps = c.prepareStatement("SELECT 1")) {
      driver = underlying(ps);
    }
    c.close();
    assertThat(driver.isClosed()).isTrue();
    assertThat(c.isClosed()).isTrue();
  }

  @Test
  void pastItsCapacityTheLeastRecentlyUsedFreeStatementIsClosed() throws SQLException {
    List<PreparedStatement> drivers = new ArrayList<>();
    for (int i = 0; i <= StatementCache.CAPACITY; i++) {
      try (PreparedStatement ps = c.prepareStatement("SELECT " + i)) {
        drivers.add(underlying(ps));
      }
    }
    assertThat(drivers.get(0).isClosed()).as("the eldest, evicted").isTrue();
    assertThat(drivers.get(StatementCache.CAPACITY).isClosed()).isFalse();
  }

  @Test
  void theDriversFailuresPassThroughWithTheirOwnType() throws SQLException {
    assertThatThrownBy(() -> c.prepareStatement("SELECT * FROM missing"))
        .isInstanceOf(SQLiteException.class)
        .hasMessageContaining("missing");
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?, 9)")) {
      ps.setString(1, "a");
      assertThatThrownBy(ps::executeUpdate)
          .isInstanceOfSatisfying(
              SQLException.class,
              e -> assertThat(SqliteDialect.INSTANCE.isUniqueViolation(e)).isTrue());
    }
    // The statement that failed is reusable.
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?, 9)")) {
      ps.setString(1, "z");
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
  }

  @Test
  void theStoreConnectionRunsNoGeneratedKeysQueryAfterAnInsert() throws SQLException {
    assertThat(c.unwrap(SQLiteConnection.class).getConnectionConfig().isGetGeneratedKeys())
        .isFalse();
  }
}
