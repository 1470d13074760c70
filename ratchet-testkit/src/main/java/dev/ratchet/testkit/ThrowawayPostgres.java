package dev.ratchet.testkit;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL cluster of a test's or a chaos trial's own, which it may stop and start: {@code
 * initdb} into a temporary directory (as the {@code postgres} OS user when the test runs as root),
 * its own port on 127.0.0.1 and its own socket directory. The shared service is never touched.
 */
public final class ThrowawayPostgres implements AutoCloseable {
  private final Path bin;
  private final Path dir;
  private final Path data;
  private final int port;
  private final boolean asPostgres;
  private boolean running;

  private ThrowawayPostgres(Path bin, Path dir, int port, boolean asPostgres) {
    this.bin = bin;
    this.dir = dir;
    this.data = dir.resolve("data");
    this.port = port;
    this.asPostgres = asPostgres;
  }

  /** The newest {@code /usr/lib/postgresql/<version>/bin} with initdb and pg_ctl, if any. */
  public static Optional<Path> binaries() {
    Path root = Path.of("/usr/lib/postgresql");
    if (!Files.isDirectory(root)) {
      return Optional.empty();
    }
    try (Stream<Path> versions = Files.list(root)) {
      return versions
          .map(v -> v.resolve("bin"))
          .filter(b -> Files.isExecutable(b.resolve("initdb")))
          .filter(b -> Files.isExecutable(b.resolve("pg_ctl")))
          .max(Comparator.comparing(b -> versionOf(b.getParent())));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static int versionOf(Path p) {
    try {
      return Integer.parseInt(p.getFileName().toString());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** Creates and starts a cluster in a fresh temporary directory. */
  public static ThrowawayPostgres start(Path bin) throws IOException, InterruptedException {
    return start(bin, freePort());
  }

  /** As {@link #start(Path)}, on {@code port} (a range a test was given, not a random one). */
  public static ThrowawayPostgres start(Path bin, int port)
      throws IOException, InterruptedException {
    boolean root = "root".equals(System.getProperty("user.name"));
    Path dir = Files.createTempDirectory("ratchet-pg-cluster");
    ThrowawayPostgres c = new ThrowawayPostgres(bin, dir, port, root);
    try {
      if (root) {
        c.run(List.of("chown", "postgres:postgres", dir.toString()), false);
      }
      c.run(
          List.of(
              bin.resolve("initdb").toString(),
              "-D",
              c.data.toString(),
              "-U",
              "postgres",
              "-A",
              "trust",
              "-E",
              "UTF8",
              "--no-sync"),
          true);
      c.start();
      return c;
    } catch (IOException | InterruptedException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  public String url() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
  }

  public void start() throws IOException, InterruptedException {
    run(
        List.of(
            bin.resolve("pg_ctl").toString(),
            "-D",
            data.toString(),
            "-l",
            dir.resolve("server.log").toString(),
            "-o",
            "-p "
                + port
                + " -k "
                + dir
                + " -c listen_addresses=127.0.0.1 -c max_connections=80 -c shared_buffers=16MB",
            "-w",
            "-t",
            "60",
            "start"),
        true);
    running = true;
  }

  /** Stops the server at once, as a crash would: no shutdown checkpoint, WAL replay on start. */
  public void stopImmediately() throws IOException, InterruptedException {
    run(
        List.of(
            bin.resolve("pg_ctl").toString(),
            "-D",
            data.toString(),
            "-m",
            "immediate",
            "-w",
            "-t",
            "60",
            "stop"),
        true);
    running = false;
  }

  private void run(List<String> command, boolean asServerUser)
      throws IOException, InterruptedException {
    exec(command, asServerUser && asPostgres, dir.resolve("commands.log"), this::serverLog);
  }

  /** What a failed command's message adds after the command's own output. */
  public interface Context {
    String text() throws IOException;
  }

  /**
   * Runs a server command ({@code runuser -u postgres --} first when {@code asPostgres}), its
   * output appended to {@code log}; throws, with that log and {@code context}, when it fails or
   * runs past two minutes. Shared with the failover campaign's clusters (ratchet-chaos).
   */
  public static void exec(List<String> command, boolean asPostgres, Path log, Context context)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    if (asPostgres) {
      cmd.addAll(List.of("runuser", "-u", "postgres", "--"));
    }
    cmd.addAll(command);
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IllegalStateException(
          String.join(" ", command) + " failed:\n" + Files.readString(log) + context.text());
    }
  }

  private String serverLog() throws IOException {
    Path log = dir.resolve("server.log");
    return Files.exists(log) ? Files.readString(log) : "";
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Override
  public void close() {
    try {
      if (running) {
        stopImmediately();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException | RuntimeException e) {
      // best effort: the directory is removed below either way
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a leftover temporary directory
    }
  }
}
