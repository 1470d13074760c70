package dev.ratchet.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The CPU time a phase of figure 7 cost the machine: the harness JVM's (Ratchet's runs or DBOS's
 * workflows, whichever the phase ran, with their JDBC drivers and pools) and the PostgreSQL
 * server's, by database: each server process (backend or autovacuum worker) counts for the database
 * it is connected to, the WAL writer, checkpointer and other processes without one for "" (shared).
 * So a side is charged for its own backends, and not for the autovacuum that the other side's
 * writes set off while it runs. On two cores the sum per step bounds the steps/s a side can reach,
 * which throughput alone does not show.
 *
 * <p>Processes come from {@code pg_stat_activity} (the server's own list, read through the
 * harness's admin connection, whose backend is left out), their on-CPU nanoseconds from {@code
 * /proc/PID/schedstat} (PostgreSQL's processes are single-threaded, so the leader's figure is the
 * process's). Off Linux, or with a server on another machine, the server side is unknown. A process
 * that ends within a phase takes its CPU of that phase with it (short autovacuum workers).
 */
final class CpuMeter {
  static final Path PROC = Path.of("/proc");

  private final Path proc;
  private final Supplier<Map<Integer, String>> serverProcesses;

  /**
   * @param serverProcesses the server's processes now: pid to database name ("" for none)
   */
  CpuMeter(Path proc, Supplier<Map<Integer, String>> serverProcesses) {
    this.proc = proc;
    this.serverProcesses = serverProcesses;
  }

  /** A server process's database and its on-CPU nanoseconds so far. */
  record ServerProcess(String database, long nanos) {}

  /** A point in time: the JVM's CPU so far, and each visible server process's. */
  record Sample(long clientNanos, Optional<Map<Integer, ServerProcess>> server) {
    /**
     * What the phase from {@code earlier} to this sample cost: a process in both samples counts its
     * difference, one that started within the phase all of its time.
     */
    Usage since(Sample earlier) {
      Optional<Map<String, Long>> byDatabase = Optional.empty();
      if (server.isPresent() && earlier.server.isPresent()) {
        Map<String, Long> sums = new HashMap<>();
        for (Map.Entry<Integer, ServerProcess> e : server.get().entrySet()) {
          ServerProcess before = earlier.server.get().get(e.getKey());
          long spent =
              before == null || !before.database().equals(e.getValue().database())
                  ? e.getValue().nanos()
                  : e.getValue().nanos() - before.nanos();
          sums.merge(e.getValue().database(), spent, Long::sum);
        }
        byDatabase = Optional.of(Map.copyOf(sums));
      }
      return new Usage(clientNanos - earlier.clientNanos, byDatabase);
    }
  }

  /** The CPU of one or more phases: the JVM's, and the server's by database if known. */
  record Usage(long clientNanos, Optional<Map<String, Long>> serverByDatabase) {
    static final Usage ZERO = new Usage(0, Optional.of(Map.of()));

    Usage plus(Usage other) {
      Optional<Map<String, Long>> server = Optional.empty();
      if (serverByDatabase.isPresent() && other.serverByDatabase.isPresent()) {
        Map<String, Long> sums = new HashMap<>(serverByDatabase.get());
        other.serverByDatabase.get().forEach((db, n) -> sums.merge(db, n, Long::sum));
        server = Optional.of(Map.copyOf(sums));
      }
      return new Usage(clientNanos + other.clientNanos, server);
    }

    /** The server's CPU for {@code database}, if the server was visible (0 if it had none). */
    Optional<Long> server(String database) {
      return serverByDatabase.map(m -> m.getOrDefault(database, 0L));
    }
  }

  /**
   * The server's processes now, listed through {@code admin}: pid to database ("" for the WAL
   * writer and the others without one), the admin connection's own backend left out.
   */
  static Map<Integer, String> listedBy(Connection admin) {
    Map<Integer, String> pids = new HashMap<>();
    try (Statement s = admin.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT pid, coalesce(datname, '') FROM pg_stat_activity"
                    + " WHERE pid <> pg_backend_pid()")) {
      while (rs.next()) {
        pids.put(rs.getInt(1), rs.getString(2));
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot list the server's processes: " + e.getMessage(), e);
    }
    return pids;
  }

  Sample read() {
    return new Sample(jvmNanos(), server());
  }

  private static long jvmNanos() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    throw new IllegalStateException("this JVM does not report its process CPU time");
  }

  /** Every listed server process this machine shows, with its CPU so far; empty if none. */
  Optional<Map<Integer, ServerProcess>> server() {
    Map<Integer, ServerProcess> seen = new HashMap<>();
    serverProcesses
        .get()
        .forEach(
            (pid, database) -> {
              try {
                long n = onCpuNanos(Files.readString(proc.resolve(pid + "/schedstat")));
                seen.put(pid, new ServerProcess(database, n));
              } catch (IOException e) {
                // Not on this machine, or it ended between the listing and the read.
              }
            });
    return seen.isEmpty() ? Optional.empty() : Optional.of(Map.copyOf(seen));
  }

  /** The first field of a {@code schedstat} line: time spent on the CPU, in nanoseconds. */
  static long onCpuNanos(String schedstat) {
    String[] fields = schedstat.strip().split("\\s+");
    try {
      long n = Long.parseLong(fields[0]);
      if (n < 0) {
        throw new NumberFormatException("negative");
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a schedstat line: '" + schedstat.strip() + "'", e);
    }
  }
}
