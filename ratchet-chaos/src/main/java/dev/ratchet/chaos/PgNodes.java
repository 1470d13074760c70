package dev.ratchet.chaos;

import dev.ratchet.testkit.ThrowawayPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The server commands of {@link ReplicaPair}, run as the {@code postgres} OS user when the caller
 * is root ({@code initdb} refuses root): every data directory lives under one temporary directory
 * that user owns, and {@link #close} stops whatever is still running and deletes it.
 */
final class PgNodes implements AutoCloseable {
  private final Path bin;
  private final Path dir;
  private final boolean asPostgres;
  private final Set<Path> running = new LinkedHashSet<>();

  private PgNodes(Path bin, Path dir, boolean asPostgres) {
    this.bin = bin;
    this.dir = dir;
    this.asPostgres = asPostgres;
  }

  static PgNodes create(Path bin) throws IOException, InterruptedException {
    boolean root = "root".equals(System.getProperty("user.name"));
    Path dir = Files.createTempDirectory("ratchet-pg-pair");
    PgNodes n = new PgNodes(bin, dir, root);
    if (root) {
      n.run(List.of("chown", "postgres:postgres", dir.toString()), false);
    }
    return n;
  }

  Path dir() {
    return dir;
  }

  void initdb(Path data) throws IOException, InterruptedException {
    run(
        List.of(
            bin.resolve("initdb").toString(),
            "-D",
            data.toString(),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-sync"),
        true);
  }

  /**
   * Starts a server. {@code fsync=off}: the campaign kills processes, never the machine, and a
   * killed process loses nothing the kernel already holds; replication still acknowledges as
   * configured.
   */
  void start(Path data, int port, List<String> settings) throws IOException, InterruptedException {
    StringBuilder o =
        new StringBuilder(
            "-p "
                + port
                + " -k "
                + dir
                + " -c listen_addresses=127.0.0.1 -c max_connections=80 -c shared_buffers=16MB"
                + " -c fsync=off");
    for (String s : settings) {
      o.append(" -c ").append(s);
    }
    run(
        List.of(
            bin.resolve("pg_ctl").toString(),
            "-D",
            data.toString(),
            "-l",
            data.resolveSibling(data.getFileName() + ".log").toString(),
            "-o",
            o.toString(),
            "-w",
            "-t",
            "60",
            "start"),
        true);
    running.add(data);
  }

  void promote(Path data) throws IOException, InterruptedException {
    run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-w", "promote"), true);
  }

  void baseBackup(int fromPort, Path data) throws IOException, InterruptedException {
    run(
        List.of(
            bin.resolve("pg_basebackup").toString(),
            "-h",
            "127.0.0.1",
            "-p",
            Integer.toString(fromPort),
            "-U",
            "postgres",
            "-D",
            data.toString(),
            "-R",
            "-X",
            "stream",
            "-c",
            "fast",
            "-N"),
        true);
  }

  /** SIGKILL: the postmaster first (so it restarts nothing), then every process it started. */
  void kill(Path data) throws IOException {
    long pid = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
    ProcessHandle.of(pid)
        .ifPresent(
            pm -> {
              List<ProcessHandle> children = pm.descendants().toList();
              pm.destroyForcibly();
              children.forEach(ProcessHandle::destroyForcibly);
              awaitGone(pm);
              children.forEach(PgNodes::awaitGone);
            });
    running.remove(data);
  }

  private static void awaitGone(ProcessHandle p) {
    try {
      p.onExit().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("process " + p.pid() + " survived SIGKILL", e);
    }
  }

  void delete(Path data) throws IOException {
    try (Stream<Path> files = Files.walk(data)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private void run(List<String> command, boolean asServerUser)
      throws IOException, InterruptedException {
    ThrowawayPostgres.exec(
        command, asServerUser && asPostgres, dir.resolve("commands.log"), () -> tail(logs()));
  }

  private List<Path> logs() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(".log")).toList();
    }
  }

  private static String tail(Path log) throws IOException {
    List<String> l = Files.readAllLines(log);
    return String.join("\n", l.subList(Math.max(0, l.size() - 20), l.size())) + "\n";
  }

  private static String tail(List<Path> logs) throws IOException {
    StringBuilder b = new StringBuilder();
    for (Path l : logs) {
      b.append("-- ").append(l.getFileName()).append('\n').append(tail(l));
    }
    return b.toString();
  }

  @Override
  public void close() {
    for (Path data : List.copyOf(running)) {
      try {
        kill(data);
      } catch (IOException | RuntimeException e) {
        // best effort: the directory goes below either way
      }
    }
    try {
      delete(dir);
    } catch (IOException e) {
      // a leftover temporary directory
    }
  }
}
