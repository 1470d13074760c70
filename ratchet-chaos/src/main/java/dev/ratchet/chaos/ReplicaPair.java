package dev.ratchet.chaos;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A primary and a streaming-replication standby as two throwaway local clusters (issue 43, ADR
 * 0120): {@code initdb} as the {@code postgres} OS user into a temporary directory, the standby
 * made by {@code pg_basebackup -R}, each on its own port of 127.0.0.1. Workers reach whichever is
 * primary through one URL with both hosts and {@code targetServerType=primary}. The primary dies by
 * SIGKILL (the postmaster and every backend), the standby is promoted with {@code pg_ctl promote},
 * and the dead primary rejoins only as a new base backup of the new primary, on its old port.
 * Synchronous mode sets {@code synchronous_standby_names='*'} on both (the standby's takes effect
 * when it is promoted), {@code synchronous_commit=on}; asynchronous mode neither.
 *
 * <p>Ports: the first two free ports of {@code RATCHET_PG_PORTS} ({@code 55432-55439}) when set,
 * otherwise two free ports the system picks.
 */
final class ReplicaPair implements AutoCloseable {
  private final PgNodes nodes;
  private final boolean sync;
  private final int[] ports;
  private final Path[] data = new Path[2];
  private int primary;
  private int made;

  private ReplicaPair(PgNodes nodes, boolean sync, int[] ports) {
    this.nodes = nodes;
    this.sync = sync;
    this.ports = ports;
  }

  /** The server binaries a pair needs: initdb, pg_ctl and pg_basebackup. */
  static java.util.Optional<Path> binaries() {
    return dev.ratchet.testkit.ThrowawayPostgres.binaries()
        .filter(b -> Files.isExecutable(b.resolve("pg_basebackup")));
  }

  /**
   * A primary and a streaming standby, both running; the standby is streaming when this returns.
   */
  static ReplicaPair start(Path bin, boolean sync) throws IOException, InterruptedException {
    PgNodes nodes = PgNodes.create(bin);
    ReplicaPair p = new ReplicaPair(nodes, sync, ports());
    try {
      p.data[0] = p.nextDir();
      nodes.initdb(p.data[0]);
      nodes.start(p.data[0], p.ports[0], p.settings());
      p.rebuildStandby();
      return p;
    } catch (IOException | InterruptedException | RuntimeException e) {
      p.close();
      throw e;
    }
  }

  boolean sync() {
    return sync;
  }

  /** Both hosts; the driver connects to whichever accepts writes and rechecks roles after 1 s. */
  String url() {
    return "jdbc:postgresql://127.0.0.1:"
        + ports[0]
        + ",127.0.0.1:"
        + ports[1]
        + "/postgres?targetServerType=primary&hostRecheckSeconds=1";
  }

  String primaryUrl() {
    return single(primary);
  }

  String standbyUrl() {
    return single(1 - primary);
  }

  private String single(int node) {
    return "jdbc:postgresql://127.0.0.1:" + ports[node] + "/postgres";
  }

  /** The primary's current timeline (its WAL insert timeline). */
  long timeline() throws SQLException {
    try (Connection c = admin(primaryUrl())) {
      return queryLong(
          c,
          "SELECT ('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::bigint");
    }
  }

  /**
   * Stops shipping WAL: the standby's {@code primary_conninfo} is emptied and reloaded, so its WAL
   * receiver stops and does not come back (as a standby that lags behind, or a network cut, would
   * leave it). Returns once no receiver runs. Asynchronous commits go on and are acknowledged;
   * synchronous ones wait for a standby that never answers. The standby is promoted or rebuilt
   * after, so the setting never needs restoring.
   */
  void cutReplication() throws SQLException {
    try (Connection c = admin(standbyUrl());
        Statement s = c.createStatement()) {
      s.execute("ALTER SYSTEM SET primary_conninfo = ''");
      s.execute("SELECT pg_reload_conf()");
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (queryLong(c, "SELECT count(*) FROM pg_stat_wal_receiver") > 0) {
        if (System.nanoTime() > end) {
          throw new IllegalStateException("the standby's WAL receiver did not stop");
        }
        LockSupport.parkNanos(10_000_000L);
      }
    }
  }

  /** SIGKILLs the primary's postmaster and then every process it had started. */
  void killPrimary() throws IOException {
    nodes.kill(data[primary]);
  }

  /**
   * Waits until the standby has replayed every byte of WAL it received (what promotion would
   * replay), so that what a hot-standby read sees is what the promoted server will hold.
   */
  void awaitStandbyReplayed(long timeoutMs) throws SQLException {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    try (Connection c = admin(standbyUrl())) {
      while (queryLong(
              c,
              "SELECT CASE WHEN pg_last_wal_receive_lsn() IS NULL"
                  + " OR pg_last_wal_replay_lsn() >= pg_last_wal_receive_lsn() THEN 1 ELSE 0 END")
          == 0) {
        if (System.nanoTime() > end) {
          throw new IllegalStateException("the standby did not replay what it received");
        }
        LockSupport.parkNanos(20_000_000L);
      }
    }
  }

  /** Promotes the standby ({@code pg_ctl promote -w}); it is the primary from now on. */
  void promote() throws IOException, InterruptedException {
    nodes.promote(data[1 - primary]);
    primary = 1 - primary;
  }

  /**
   * Makes the node that is not the primary a new standby: its old data directory is deleted, a base
   * backup of the primary taken in its place, and the server started on its port; returns once it
   * streams.
   */
  void rebuildStandby() throws IOException, InterruptedException {
    int node = 1 - primary;
    if (data[node] != null) {
      nodes.delete(data[node]);
    }
    data[node] = nextDir();
    nodes.baseBackup(ports[primary], data[node]);
    nodes.start(data[node], ports[node], settings());
    awaitStreaming(60_000);
  }

  private void awaitStreaming(long timeoutMs) {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    String want = sync ? "sync" : "async";
    while (true) {
      try (Connection c = admin(primaryUrl())) {
        if (queryLong(
                c,
                "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'"
                    + " AND sync_state = '"
                    + want
                    + "'")
            > 0) {
          return;
        }
      } catch (SQLException e) {
        // the primary is starting
      }
      if (System.nanoTime() > end) {
        throw new IllegalStateException("the standby is not streaming (" + want + ")");
      }
      LockSupport.parkNanos(50_000_000L);
    }
  }

  private List<String> settings() {
    List<String> s = new ArrayList<>();
    if (sync) {
      s.add("synchronous_standby_names='*'");
      s.add("synchronous_commit=on");
    }
    return s;
  }

  private Path nextDir() {
    return nodes.dir().resolve("node-" + made++);
  }

  static Connection admin(String url) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    p.setProperty("connectTimeout", "3");
    return DriverManager.getConnection(url, p);
  }

  static long queryLong(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static int[] ports() throws IOException {
    String range = System.getenv("RATCHET_PG_PORTS");
    int[] out = new int[2];
    int n = 0;
    if (range != null && range.matches("[0-9]+-[0-9]+")) {
      String[] p = range.split("-");
      for (int port = Integer.parseInt(p[0]); port <= Integer.parseInt(p[1]) && n < 2; port++) {
        if (free(port)) {
          out[n++] = port;
        }
      }
      if (n < 2) {
        throw new IllegalStateException("RATCHET_PG_PORTS " + range + ": fewer than two free");
      }
      return out;
    }
    for (; n < 2; n++) {
      try (ServerSocket s = new ServerSocket(0)) {
        out[n] = s.getLocalPort();
      }
    }
    return out;
  }

  private static boolean free(int port) {
    try (ServerSocket s = new ServerSocket(port)) {
      return s.isBound();
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public void close() {
    nodes.close();
  }
}
