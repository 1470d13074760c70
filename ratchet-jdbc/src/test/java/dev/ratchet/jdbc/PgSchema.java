package dev.ratchet.jdbc;

import dev.ratchet.testkit.ManualClock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/**
 * One test's own PostgreSQL schema: created by the admin for the owner role, migrated by the owner,
 * granted to the worker and inspector roles, dropped on {@link #close}. Stores open as the worker
 * unless a test says otherwise, exactly as a deployment would.
 *
 * <p><b>The database clock in tests.</b> Leases are judged by the schema's {@code ratchet_now_ms()}
 * (the server's {@code clock_timestamp()} in production). The testkit contracts move a {@link
 * ManualClock} and assert exact expiry instants, so {@link #pinClock} replaces that one function in
 * this schema by one that reads a row the test writes, and {@link PinnedStore} writes the manual
 * clock's time into that row before every store call. Everything else runs unchanged: the functions
 * still judge leases themselves, on what the database says the time is. {@code PostgresClockTest}
 * covers the unpinned, real clock.
 */
final class PgSchema implements AutoCloseable {
  final String name;
  private final String url;
  private Connection admin; // reconnected after a server restart
  private boolean pinned;
  private long pinnedAt = Long.MIN_VALUE;
  private JdbcStore sharedOperator;

  private PgSchema(String name, String url, Connection admin) {
    this.name = name;
    this.url = url;
    this.admin = admin;
  }

  /** A new migrated schema with worker and inspector grants, on the shared service. */
  static PgSchema create() {
    return create(Postgres.URL);
  }

  /** A new migrated schema with worker and inspector grants, on the server at {@code url}. */
  static PgSchema create(String url) {
    PgSchema s = createEmpty(url);
    try {
      JdbcStore.open(s.owner(), options().withOpenMode(OpenMode.CREATE)).close();
      PostgresAccess.grantWorker(s.owner(), Postgres.WORKER);
      PostgresAccess.grantInspector(s.owner(), Postgres.INSPECTOR);
      PostgresAccess.grantOperator(s.owner(), Postgres.OPERATOR);
      return s;
    } catch (RuntimeException e) {
      s.close();
      throw e;
    }
  }

  /** A new empty schema owned by the owner role (not migrated), on the shared service. */
  static PgSchema createEmpty() {
    String problem = Postgres.problem();
    if (problem != null) {
      throw new IllegalStateException("PostgreSQL is not available: " + problem);
    }
    return createEmpty(Postgres.URL);
  }

  private static PgSchema createEmpty(String url) {
    String name = Postgres.newSchemaName();
    try {
      Connection admin = Postgres.connect(url, Postgres.ADMIN);
      Postgres.createRoles(admin);
      // Nobody needs this connection's writes to survive a power loss.
      Postgres.exec(
          admin,
          "SET synchronous_commit = off",
          "CREATE SCHEMA " + name + " AUTHORIZATION " + Postgres.OWNER);
      return new PgSchema(name, url, admin);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Store options for tests: a clock PostgreSQL ignores, short waits, a small pool. */
  static StoreOptions options() {
    return StoreOptions.defaults(InstantSource.fixed(Instant.EPOCH))
        .withBusyTimeout(Duration.ofSeconds(5));
  }

  Database as(String role) {
    return Database.postgres(url, role, Postgres.PASSWORD).withSchema(name).withPoolSize(4);
  }

  Database owner() {
    return as(Postgres.OWNER);
  }

  Database worker() {
    return as(Postgres.WORKER);
  }

  Database inspector() {
    return as(Postgres.INSPECTOR);
  }

  Database operator() {
    return as(Postgres.OPERATOR);
  }

  /** A store on this schema, connected as the worker. */
  JdbcStore openWorker() {
    return JdbcStore.open(worker(), options());
  }

  /** Replaces the database clock of this schema by one the test sets ({@link #setClock}). */
  synchronized PgSchema pinClock() {
    exec(
        "SET ROLE " + Postgres.OWNER,
        "CREATE TABLE " + name + ".ratchet_test_clock (now_ms BIGINT NOT NULL)",
        "INSERT INTO " + name + ".ratchet_test_clock VALUES (0)",
        "CREATE OR REPLACE FUNCTION "
            + name
            + ".ratchet_now_ms() RETURNS BIGINT LANGUAGE sql VOLATILE SECURITY DEFINER"
            + " SET search_path = "
            + name
            + ", pg_temp AS $$ SELECT now_ms FROM ratchet_test_clock $$",
        "RESET ROLE");
    pinned = true;
    return this;
  }

  /** Sets the pinned database clock (only when it changed: concurrent callers agree). */
  synchronized void setClock(long epochMillis) {
    if (!pinned) {
      throw new IllegalStateException("the clock of " + name + " is not pinned");
    }
    if (epochMillis == pinnedAt) {
      return;
    }
    try {
      withAdmin(
          c -> {
            try (PreparedStatement ps =
                c.prepareStatement("UPDATE " + name + ".ratchet_test_clock SET now_ms = ?")) {
              ps.setLong(1, epochMillis);
              ps.executeUpdate();
            }
          });
      pinnedAt = epochMillis;
    } catch (SQLException e) {
      throw new IllegalStateException("setting the pinned clock of " + name, e);
    }
  }

  /**
   * Empties every store table (between the tests of one class); DELETE, because the tables are tiny
   * and TRUNCATE's new files cost more.
   */
  synchronized void truncate() {
    exec(
        java.util.stream.Stream.of(
                "ratchet_marks",
                "ratchet_generations",
                "ratchet_checkpoints",
                "ratchet_records",
                "ratchet_leases",
                "ratchet_inbox",
                "ratchet_schedule",
                "ratchet_submissions")
            .map(t -> "DELETE FROM " + name + "." + t)
            .toArray(String[]::new));
  }

  /** Runs statements as the admin (superuser). */
  synchronized void exec(String... statements) {
    try {
      withAdmin(c -> Postgres.exec(c, statements));
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private interface AdminWork {
    void run(Connection c) throws SQLException;
  }

  /** Runs {@code work} on the admin connection, reconnecting once if the server restarted. */
  private void withAdmin(AdminWork work) throws SQLException {
    try {
      work.run(admin);
    } catch (SQLException e) {
      if (admin.isValid(2)) {
        throw e;
      }
      try {
        admin.close();
      } catch (SQLException ignored) {
        // it is gone already
      }
      admin = Postgres.connect(url, Postgres.ADMIN);
      Postgres.exec(admin, "SET synchronous_commit = off");
      work.run(admin);
    }
  }

  /**
   * A store decorator that pins this schema's clock to {@code clock} before every call and delivers
   * inbox items as the operator role, as a deployment does (a worker may not deliver, D21).
   */
  PinnedStore pinned(JdbcStore store, ManualClock clock, boolean closesStore) {
    // A store the decorator owns gets its own operator store (closed with it, so a closed store
    // fails closed on delivery too); the others share this schema's, closed with the schema.
    JdbcStore operator = closesStore ? openOperator() : sharedOperator();
    return new PinnedStore(store, () -> setClock(clock.millis()), closesStore, operator);
  }

  private JdbcStore openOperator() {
    return JdbcStore.open(operator().withPoolSize(1), options());
  }

  private synchronized JdbcStore sharedOperator() {
    if (sharedOperator == null) {
      sharedOperator = openOperator();
    }
    return sharedOperator;
  }

  @Override
  public synchronized void close() {
    if (sharedOperator != null) {
      sharedOperator.close();
    }
    try {
      withAdmin(c -> Postgres.exec(c, "DROP SCHEMA IF EXISTS " + name + " CASCADE"));
    } catch (SQLException e) {
      // left for the stale-schema sweep of a later run
    } finally {
      try {
        admin.close();
      } catch (SQLException e) {
        // nothing to do
      }
    }
  }
}
